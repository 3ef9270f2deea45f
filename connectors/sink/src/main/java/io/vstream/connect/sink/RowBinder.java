package io.vstream.connect.sink;

import io.vstream.connect.core.event.RowValues;
import io.vstream.connect.core.sql.ValueBinder;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Binds a row image's values to the placeholders of a {@link RowStatements} statement, in the order its columns
 * were listed: each value as the target column takes it ({@link RowValues#toSql}), a geometry as WKB and SRID, and
 * the cells the image does not carry exactly ({@link InvalidCells}, told per row before it is written) as the source
 * holds them: an ENUM's index 0, the server's text of a date no calendar has, the zero date of a NOT NULL column.
 * Touches the target only through the statements it is given.
 */
final class RowBinder {
    /** Per row image about to be written: its cells the image's values do not carry exactly. */
    private final Map<Struct, InvalidCells> invalidCells = new IdentityHashMap<>();

    /** Says that {@code row}, bound next, holds {@code cells} (null: none). */
    void invalidCells(Struct row, InvalidCells cells) {
        if (cells != null) {
            invalidCells.put(row, cells);
        }
    }

    /** The invalid cells {@code row} was said to hold, or null. */
    InvalidCells invalidCellsOf(Struct row) {
        return invalidCells.isEmpty() ? null : invalidCells.get(row);
    }

    /** Forgets what {@link #invalidCells} was told about rows that were not written after all. */
    void forgetInvalidCells() {
        invalidCells.clear();
    }

    /** Binds the row's values from placeholder {@code first} on; returns the next placeholder's index. */
    int bindRow(PreparedStatement ps, int first, TargetTable t, Struct row) throws SQLException {
        InvalidCells cells = invalidCells.isEmpty() ? null : invalidCells.remove(row);
        Map<String, String> texts = cells == null ? null : cells.temporals();
        int i = first;
        for (Field f : row.schema().fields()) {
            String target = t.writtenColumn(f.name());
            if (target == null) {
                continue;
            }
            Object v = row.get(f);
            if (RowValues.isGeometry(f.schema())) {
                Object[] g = RowValues.geometry(v);
                ValueBinder.bind(ps, i++, g[0]);
                ValueBinder.bind(ps, i++, v == null ? null : g[1]);
                continue;
            }
            Object sql = RowValues.toSql(f.schema(), v);
            if (cells != null && cells.enumIndexZero().contains(f.name())) {
                sql = 0; // the invalid-value entry, by its index (the statement runs without the strict modes)
            } else if (sql == null && texts != null && texts.containsKey(f.name())) {
                sql = texts.get(f.name()); // the server's own text of a date no calendar has
            } else if (sql == null && t.notNullColumns().contains(target)) {
                sql = RowValues.zeroDate(f.schema());
            }
            ValueBinder.bind(ps, i++, sql);
        }
        return i;
    }

    /** Binds the key columns of {@code image} ({@link RowStatements#deleteByKey}'s placeholders). */
    static void bindKey(PreparedStatement ps, TargetTable t, Struct image) throws SQLException {
        int i = 1;
        for (String k : t.keyColumns()) {
            String source = t.sourceName(k);
            Schema s = image.schema().field(source).schema();
            ValueBinder.bind(ps, i++, RowValues.toSql(s, image.get(source)));
        }
    }
}
