package io.vstream.connect.local.load;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The rows of the standard load table
 * {@code (id BIGINT PRIMARY KEY, k INT NOT NULL, v VARCHAR(64), amount DECIMAL(12,2), updated DATETIME(6))}:
 * random but seed-determined values, {@code v} sometimes NULL, {@code updated} a synthetic clock (no wall
 * time, so a seed always gives the same rows). Touches no server.
 */
public final class StandardRows implements RowFactory {

    static final String DDL = "(id BIGINT NOT NULL PRIMARY KEY, k INT NOT NULL, v VARCHAR(64) NULL, "
            + "amount DECIMAL(12,2) NOT NULL, updated DATETIME(6) NOT NULL, KEY k (k))";
    private static final LocalDateTime EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 _-";

    @Override
    public List<String> columns() {
        return List.of("k", "v", "amount", "updated");
    }

    @Override
    public Map<String, Object> insert(long key, Random random) {
        return values(random);
    }

    @Override
    public Map<String, Object> update(long key, Map<String, Object> current, Random random) {
        Map<String, Object> next = values(random);
        if (random.nextBoolean()) {
            next.put("v", current.get("v"));
        }
        return next;
    }

    private static Map<String, Object> values(Random random) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("k", random.nextInt(1000));
        row.put("v", random.nextInt(10) == 0 ? null : text(random, 1 + random.nextInt(64)));
        row.put("amount", BigDecimal.valueOf(random.nextInt(100_000_000) - 50_000_000L, 2));
        row.put("updated", EPOCH.plusNanos(Math.floorMod(random.nextLong(), 86_400_000_000L * 365) * 1000));
        return row;
    }

    private static String text(Random random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return out.toString();
    }
}
