package io.vstream.connect.transforms.util;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * A {@link ConfigDef.Validator} and parser for a setting whose value is one constant of an enum, written in lower
 * case ({@code drop}, {@code pass}); input is accepted in any case. The validator's text lists the choices, as the
 * generated reference shows it.
 */
public final class EnumChoice<E extends Enum<E>> implements ConfigDef.Validator {

    private final Class<E> type;

    private EnumChoice(Class<E> type) {
        this.type = type;
    }

    public static <E extends Enum<E>> EnumChoice<E> of(Class<E> type) {
        return new EnumChoice<>(type);
    }

    /** The setting's spelling of a constant, e.g. {@code tombstone}. */
    public static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** The constant {@code value} names, case-insensitively. */
    public E parse(String key, String value) {
        if (value != null) {
            String wanted = value.strip();
            for (E e : type.getEnumConstants()) {
                if (e.name().equalsIgnoreCase(wanted)) {
                    return e;
                }
            }
        }
        throw new ConfigException(key, value, "must be one of " + this);
    }

    @Override
    public void ensureValid(String key, Object value) {
        parse(key, value == null ? null : value.toString());
    }

    @Override
    public String toString() {
        return Arrays.stream(type.getEnumConstants()).map(EnumChoice::name).collect(Collectors.joining(", "));
    }
}
