package io.vstream.connect.local.load;

import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Makes the column values a {@link WriteLoad} writes into one table. Values must be what the server
 * stores back (decimal scale, datetime precision, string length), so the load's model matches the table.
 * Must be deterministic for a given {@link Random}.
 */
public interface RowFactory {

    /** The non-key columns, in the order the factory fills them. */
    List<String> columns();

    /** The non-key values of a new row with this key. */
    Map<String, Object> insert(long key, Random random);

    /** The non-key values after an update of the row whose current image (key included) is {@code current}. */
    Map<String, Object> update(long key, Map<String, Object> current, Random random);
}
