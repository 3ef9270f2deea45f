package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ValueBinderTest {

    /** One setter call on the recording statement: the method name and its arguments. */
    private record Call(String method, List<Object> args) {
    }

    private final List<Call> calls = new ArrayList<>();

    private final PreparedStatement ps = (PreparedStatement) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                if (!method.getName().startsWith("set")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                calls.add(new Call(method.getName(), Arrays.asList(args)));
                return null;
            });

    static Stream<Arguments> simpleValues() {
        byte[] bytes = {1, 2, 3};
        return Stream.of(
                Arguments.of(true, "setBoolean", true),
                Arguments.of((byte) 7, "setByte", (byte) 7),
                Arguments.of((short) 7, "setShort", (short) 7),
                Arguments.of(7, "setInt", 7),
                Arguments.of(7L, "setLong", 7L),
                Arguments.of(new BigDecimal("12.50"), "setBigDecimal", new BigDecimal("12.50")),
                Arguments.of(1.5f, "setDouble", 1.5d),
                Arguments.of(-Float.MAX_VALUE, "setDouble", -3.4028234663852886e38),
                Arguments.of(2.5d, "setDouble", 2.5d),
                Arguments.of("it's `x`", "setString", "it's `x`"),
                Arguments.of(bytes, "setBytes", bytes),
                Arguments.of(LocalDate.of(2024, 2, 29), "setObject", LocalDate.of(2024, 2, 29)),
                Arguments.of(LocalTime.of(23, 59, 58, 123_000_000), "setObject",
                        LocalTime.of(23, 59, 58, 123_000_000)),
                Arguments.of(LocalDateTime.of(2024, 2, 29, 1, 2, 3), "setString", "2024-02-29 01:02:03.000000"),
                Arguments.of(LocalDateTime.of(0, 1, 1, 0, 0, 0, 1000), "setString", "0000-01-01 00:00:00.000001"),
                Arguments.of(java.sql.Date.valueOf("2024-02-29"), "setDate", java.sql.Date.valueOf("2024-02-29")),
                Arguments.of(java.sql.Time.valueOf("10:11:12"), "setTime", java.sql.Time.valueOf("10:11:12")));
    }

    @ParameterizedTest
    @MethodSource("simpleValues")
    void bindsWithTheMatchingSetter(Object value, String setter, Object bound) throws Exception {
        ValueBinder.bind(ps, 3, value);
        assertThat(calls).containsExactly(new Call(setter, List.of(3, bound)));
    }

    @Test
    void bindsNullAsSqlNull() throws Exception {
        ValueBinder.bind(ps, 1, null);
        assertThat(calls).containsExactly(new Call("setNull", List.of(1, Types.NULL)));
    }

    @Test
    void bindsUnsignedBigintAsAnExactDecimal() throws Exception {
        ValueBinder.bind(ps, 2, new BigInteger("18446744073709551615"));
        assertThat(calls).containsExactly(
                new Call("setBigDecimal", List.of(2, new BigDecimal("18446744073709551615"))));
    }

    @Test
    void bindsTheRemainingBytesOfABufferWithoutConsumingIt() throws Exception {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 1, 2});
        buffer.get();
        ValueBinder.bind(ps, 1, buffer);
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.method()).isEqualTo("setBytes");
            assertThat((byte[]) call.args().get(1)).containsExactly(1, 2);
        });
        assertThat(buffer.position()).isEqualTo(1);
    }

    @Test
    void bindsInstantsAsUtcWallClockTime() throws Exception {
        LocalDateTime utc = LocalDateTime.of(2024, 3, 1, 10, 0, 0, 500_000_000);
        ValueBinder.bind(ps, 1, utc.toInstant(ZoneOffset.UTC));
        ValueBinder.bind(ps, 2, OffsetDateTime.of(utc.plusHours(2), ZoneOffset.ofHours(2)));
        ValueBinder.bind(ps, 3,
                ZonedDateTime.of(utc, ZoneOffset.UTC).withZoneSameInstant(ZoneId.of("America/New_York")));
        assertThat(calls).containsExactly(
                new Call("setString", List.of(1, "2024-03-01 10:00:00.500000")),
                new Call("setString", List.of(2, "2024-03-01 10:00:00.500000")),
                new Call("setString", List.of(3, "2024-03-01 10:00:00.500000")));
    }

    @Test
    void bindsJavaUtilDateAsATimestampInUtc() throws Exception {
        Instant instant = Instant.parse("2024-03-01T10:00:00Z");
        ValueBinder.bind(ps, 1, java.util.Date.from(instant));
        ValueBinder.bind(ps, 2, Timestamp.from(instant));
        assertThat(calls).hasSize(2).allSatisfy(call -> {
            assertThat(call.method()).isEqualTo("setTimestamp");
            assertThat(((Timestamp) call.args().get(1)).toInstant()).isEqualTo(instant);
            assertThat(((Calendar) call.args().get(2)).getTimeZone().getRawOffset()).isZero();
            assertThat(((Calendar) call.args().get(2)).getTimeZone().getID()).isIn("Z", "UTC", "GMT");
        });
    }

    @Test
    void rejectsUnknownTypesNamingThem() {
        assertThatThrownBy(() -> ValueBinder.bind(ps, 4, new Object() { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ValueBinderTest$")
                .hasMessageContaining("parameter 4");
        assertThatThrownBy(() -> ValueBinder.bind(ps, 1, List.of(1)))
                .hasMessageContaining("java.util.ImmutableCollections");
        assertThat(calls).isEmpty();
    }

    @Test
    void dateTimeTextIsTheFormattersTextForEveryYearAndField() {
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern(
                "uuuu-MM-dd HH:mm:ss.SSSSSS");
        List<LocalDateTime> values = List.of(
                LocalDateTime.of(0, 1, 1, 0, 0, 0),
                LocalDateTime.of(1, 2, 3, 4, 5, 6, 7_000),
                LocalDateTime.of(999, 12, 31, 23, 59, 59, 999_999_000),
                LocalDateTime.of(2024, 2, 29, 12, 30, 45, 123_456_000),
                LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                LocalDateTime.of(10_000, 1, 1, 0, 0, 0),
                LocalDateTime.of(-1, 6, 15, 8, 0, 0, 1_000));
        for (LocalDateTime v : values) {
            assertThat(ValueBinder.dateTimeText(v)).as("%s", v).isEqualTo(f.format(v));
        }
    }
}
