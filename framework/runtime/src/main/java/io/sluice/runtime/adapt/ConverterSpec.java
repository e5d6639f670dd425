package io.sluice.runtime.adapt;

import java.io.Serializable;

/**
 * What a {@link RowAdapter} ships in the job graph instead of a converter: a recipe of plain,
 * serializable values (a Flink {@code DataType}, an Avro schema's JSON) from which each task makes
 * its converter with the job's class loader. Keeps the job's record classes, and Avro's in
 * particular, out of Java serialization.
 */
interface ConverterSpec extends Serializable {

    /**
     * Makes the converter, resolving the job's classes through {@code jobLoader}.
     *
     * @param jobLoader the job's user-code class loader, or {@code null} if not known
     */
    RecordConverter create(ClassLoader jobLoader);
}
