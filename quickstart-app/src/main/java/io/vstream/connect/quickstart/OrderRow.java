package io.vstream.connect.quickstart;

import java.math.BigDecimal;

/** One row of the sample table {@code commerce.orders}, sharded by {@code id}. */
record OrderRow(long id, int k, BigDecimal amount, long customerId, String note) {

    /** The row the initial load writes for {@code id}. */
    static OrderRow initial(long id) {
        return new OrderRow(id, (int) (id * 7919 % 1000), BigDecimal.valueOf(id % 100_000 + 100, 2),
                1 + id % SampleData.CUSTOMERS, "order " + id);
    }
}
