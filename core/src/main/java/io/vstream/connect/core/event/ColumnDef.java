package io.vstream.connect.core.event;

import java.util.Objects;
import org.apache.kafka.connect.data.Schema;

/**
 * One column of a source table as the stream describes it: its name, the MySQL type as the server reports it
 * (e.g. {@code bigint unsigned}, {@code decimal(12,2)}, {@code varchar(64)}), the Connect schema its values are
 * carried in, whether it may be NULL and whether it is part of the primary key.
 */
public record ColumnDef(String name, String sqlType, Schema schema, boolean nullable, boolean primaryKey) {
    public ColumnDef {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sqlType, "sqlType");
        Objects.requireNonNull(schema, "schema");
    }
}
