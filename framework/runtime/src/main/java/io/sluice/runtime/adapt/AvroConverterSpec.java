package io.sluice.runtime.adapt;

import java.lang.reflect.InvocationTargetException;

/**
 * Avro records: the schema travels as its JSON text, and each task parses it with the job's own
 * Avro. The converter class is compiled against Avro, so it is loaded by name, through {@link
 * JobClassBridge}, never linked from here: this class must load where no Avro is visible.
 */
final class AvroConverterSpec implements ConverterSpec {

    private static final long serialVersionUID = 1L;

    static final String CONVERTER_CLASS = "io.sluice.runtime.adapt.avro.AvroRecordConverter";
    static final String AVRO_SCHEMA_CLASS = "org.apache.avro.Schema";

    private final String schemaJson;

    AvroConverterSpec(String schemaJson) {
        this.schemaJson = schemaJson;
    }

    String schemaJson() {
        return schemaJson;
    }

    @Override
    public RecordConverter create(ClassLoader jobLoader) {
        Class<?> type = JobClassBridge.load(CONVERTER_CLASS, AVRO_SCHEMA_CLASS, jobLoader);
        try {
            return (RecordConverter) type.getConstructor(String.class).newInstance(schemaJson);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException("Cannot make the Avro converter", cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot make the Avro converter from " + type, e);
        }
    }
}
