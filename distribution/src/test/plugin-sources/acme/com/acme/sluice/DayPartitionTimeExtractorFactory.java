package com.acme.sluice;

import io.sluice.spi.partition.PartitionTimeExtractor;
import io.sluice.spi.partition.PartitionTimeExtractorFactory;
import io.sluice.spi.sink.SinkContext;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;

/** A third party's partition time extractor: values like {@code day-20240131}. */
@org.pf4j.Extension
public class DayPartitionTimeExtractorFactory implements PartitionTimeExtractorFactory {

    @Override
    public String identifier() {
        return "acme-day";
    }

    @Override
    public PartitionTimeExtractor create(SinkContext context) {
        DateTimeFormatter format = DateTimeFormatter.ofPattern("'day-'yyyyMMdd");
        return (keys, values) -> LocalDate.parse(values.get(0), format).atStartOfDay();
    }
}
