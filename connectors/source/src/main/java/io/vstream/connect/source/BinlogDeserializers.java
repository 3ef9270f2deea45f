package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;

/**
 * Configures how the binlog client turns row images into Java values before {@link ColumnConverter} maps them to
 * Connect values: temporal values as microseconds, CHAR/BINARY as bytes (decoded later with the column's charset),
 * zero dates as a marker.
 */
final class BinlogDeserializers {
    private BinlogDeserializers() {
    }

    static EventDeserializer create() {
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(
                EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
                EventDeserializer.CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE);
        return deserializer;
    }
}
