package io.sluice.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The check of an exactly-once test whose input was the ids {@code 1..rows}. */
final class RowIds {

    private RowIds() {}

    /** Every id {@code 1..rows} exactly once, with the missing, duplicated and foreign ids named if not. */
    static void assertEachOnce(String table, long rows, List<Long> ids) {
        Map<Long, Integer> counts = new HashMap<>();
        ids.forEach(id -> counts.merge(id, 1, Integer::sum));
        List<Long> missing = new ArrayList<>();
        for (long id = 1; id <= rows; id++) {
            if (!counts.containsKey(id)) {
                missing.add(id);
            }
        }
        Map<Long, Integer> duplicated = new TreeSet<>(counts.keySet())
                .stream()
                        .filter(id -> counts.get(id) > 1)
                        .collect(Collectors.toMap(id -> id, counts::get, (a, b) -> a, LinkedHashMap::new));
        Set<Long> unexpected = counts.keySet().stream()
                .filter(id -> id < 1 || id > rows)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(missing)
                .as("%s: ids missing (%d of them)", table, missing.size())
                .isEmpty();
        assertThat(duplicated)
                .as("%s: ids committed more than once (id=count)", table)
                .isEmpty();
        assertThat(unexpected).as("%s: ids outside 1..%d", table, rows).isEmpty();
        assertThat(ids).as("%s: rows", table).hasSize((int) rows);
    }
}
