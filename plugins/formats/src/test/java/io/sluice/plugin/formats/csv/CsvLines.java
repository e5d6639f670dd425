package io.sluice.plugin.formats.csv;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line into its fields by hand (quotes, doubled quotes, escape character), so that
 * the test reads the output without the library that wrote it.
 */
final class CsvLines {

    private CsvLines() {}

    /** The fields of a line; a quoted field loses its quotes. */
    static List<String> fields(String line, char delimiter, char quote, Character escape) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (escape != null && c == escape && i + 1 < line.length()) {
                field.append(line.charAt(++i));
            } else if (quoted && c == quote) {
                if (i + 1 < line.length() && line.charAt(i + 1) == quote) {
                    field.append(quote);
                    i++;
                } else {
                    quoted = false;
                }
            } else if (quoted) {
                field.append(c);
            } else if (c == quote) {
                quoted = true;
            } else if (c == delimiter) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /** The fields of a line with comma and double quote. */
    static List<String> fields(String line) {
        return fields(line, ',', '"', null);
    }
}
