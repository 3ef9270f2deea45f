package io.vstream.connect.core.config;

import java.time.Duration;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The retry keys of a connector that reconnects to its servers, {@code retry.backoff.initial.ms},
 * {@code retry.backoff.max.ms} and {@code retry.max.duration.ms}: defined the same way by the source (its shards) and
 * the sink (its targets), read into the pace of {@link io.vstream.connect.core.error.Backoff} and a give-up time. What
 * is retried is decided by {@link io.vstream.connect.core.error.ErrorClassifier}, the same for both.
 */
public final class RetryConfig {
    public static final String BACKOFF_INITIAL_MS = "retry.backoff.initial.ms";
    public static final String BACKOFF_MAX_MS = "retry.backoff.max.ms";
    public static final String MAX_DURATION_MS = "retry.max.duration.ms";

    private RetryConfig() {
    }

    /**
     * Defines the three keys in {@code group}, starting at {@code order}; returns the next order.
     *
     * @param retried what is retried, for the docs (e.g. "reconnecting to a shard after a lost connection")
     * @param givesUp what happens once retries have gone on too long, for the docs
     */
    public static int define(ConfigDef def, String group, int order, String retried, String givesUp) {
        int o = order;
        def.define(BACKOFF_INITIAL_MS, Type.LONG, 500L, ConfigDef.Range.atLeast(10), Importance.LOW,
                "The first wait before " + retried + "; doubles up to " + BACKOFF_MAX_MS + ".", group, ++o,
                Width.SHORT, "Initial retry backoff (ms)");
        def.define(BACKOFF_MAX_MS, Type.LONG, 10_000L, ConfigDef.Range.atLeast(10), Importance.LOW,
                "The longest wait between retries.", group, ++o, Width.SHORT, "Max retry backoff (ms)");
        def.define(MAX_DURATION_MS, Type.LONG, 600_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
                givesUp, group, ++o, Width.SHORT, "Max retry duration (ms)");
        return o;
    }

    /** The first wait. */
    public static Duration backoffInitial(AbstractConfig config) {
        return Duration.ofMillis(config.getLong(BACKOFF_INITIAL_MS));
    }

    /** The longest wait. */
    public static Duration backoffMax(AbstractConfig config) {
        return Duration.ofMillis(config.getLong(BACKOFF_MAX_MS));
    }

    /** How long retries may go on before the task fails. */
    public static Duration maxDuration(AbstractConfig config) {
        return Duration.ofMillis(config.getLong(MAX_DURATION_MS));
    }
}
