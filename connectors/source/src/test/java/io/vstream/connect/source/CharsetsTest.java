package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.position.Flavor;
import java.lang.reflect.Proxy;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CharsetsTest {

    @ParameterizedTest
    @CsvSource({"utf8mb4, UTF-8", "utf8mb3, UTF-8", "utf8, UTF-8", "UTF8MB4, UTF-8",
        "ascii, US-ASCII", "ucs2, UTF-16BE", "utf16, UTF-16BE", "utf16le, UTF-16LE", "utf32, UTF-32BE",
        "latin2, ISO-8859-2", "cp1250, windows-1250", "cp1251, windows-1251", "koi8r, KOI8-R", "sjis, Shift_JIS",
        "cp932, windows-31j", "ujis, EUC-JP", "euckr, EUC-KR", "gbk, GBK", "gb18030, GB18030", "big5, Big5",
        "greek, ISO-8859-7", "hebrew, ISO-8859-8", "tis620, TIS-620"})
    void mapsMysqlCharsetNamesToJava(String mysql, String java) {
        assertThat(Charsets.javaCharset(mysql)).isEqualTo(Charset.forName(java));
    }

    @Test
    void binaryHasNoCharset() {
        assertThat(Charsets.javaCharset("binary")).isNull();
        assertThat(Charsets.javaCharset("BINARY")).isNull();
        assertThat(Charsets.javaCharset(null)).isNull();
    }

    @Test
    void anUnknownCharsetKeepsItsBytesOneToOne() {
        assertThat(Charsets.javaCharset("armscii8")).isEqualTo(StandardCharsets.ISO_8859_1);
        assertThat(Charsets.javaCharset("no such charset")).isEqualTo(StandardCharsets.ISO_8859_1);
    }

    @Test
    void latin1IsWindows1252AsInMysql() {
        Charset latin1 = Charsets.javaCharset("latin1");
        assertThat(latin1).isSameAs(MysqlLatin1.INSTANCE);
        assertThat(new String(new byte[] {(byte) 0xE9, (byte) 0x80}, latin1)).isEqualTo("é€");
    }

    @Test
    void latin1BytesWindows1252LeavesUndefinedAreTheServersC1Characters() {
        byte[] undefined = {(byte) 0x81, (byte) 0x8D, (byte) 0x8F, (byte) 0x90, (byte) 0x9D};
        String text = new String(undefined, MysqlLatin1.INSTANCE);
        assertThat(text).isEqualTo("\u0081\u008D\u008F\u0090\u009D");
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String decoded = new String(all, MysqlLatin1.INSTANCE);
        assertThat(decoded).hasSize(256).doesNotContain("\uFFFD");
        assertThat(decoded.getBytes(MysqlLatin1.INSTANCE)).as("every byte round-trips").isEqualTo(all);
    }

    @Test
    void collationIdsMapToTheirCharset() {
        Charset latin1 = Charsets.javaCharset("latin1");
        Charsets c = new Charsets(Map.of(8, latin1, 45, StandardCharsets.UTF_8));
        assertThat(c.forCollation(8)).isEqualTo(latin1);
        assertThat(c.forCollation(45)).isEqualTo(StandardCharsets.UTF_8);
        assertThat(c.forCollation(BinlogColumn.BINARY_COLLATION)).as("binary").isNull();
        assertThat(c.forCollation(9999)).as("an unknown id").isEqualTo(StandardCharsets.UTF_8);
    }

    @Test
    void flavorDefaultsToMariadb() {
        assertThat(new Charsets(Map.of()).flavor()).isEqualTo(Flavor.MARIADB);
        assertThat(new Charsets(Map.of(), Flavor.MYSQL56).flavor()).isEqualTo(Flavor.MYSQL56);
    }

    @Test
    void loadReadsTheServersCollations() throws Exception {
        List<Object[]> rows = List.of(new Object[] {8, "latin1"}, new Object[] {45, "utf8mb4"},
                new Object[] {63, "binary"}, new Object[] {2, "latin2"});
        List<String> queries = new ArrayList<>();
        Charsets c = Charsets.load(connection(rows, queries), Flavor.MYSQL56);
        assertThat(queries).singleElement().asString().contains("information_schema.COLLATIONS");
        assertThat(c.flavor()).isEqualTo(Flavor.MYSQL56);
        assertThat(c.forCollation(8)).isSameAs(MysqlLatin1.INSTANCE);
        assertThat(c.forCollation(2)).isEqualTo(Charset.forName("ISO-8859-2"));
        assertThat(c.forCollation(45)).isEqualTo(StandardCharsets.UTF_8);
        assertThat(c.forCollation(63)).isNull();
    }

    /** A JDBC connection whose one query returns {@code rows} of (ID, CHARACTER_SET_NAME). */
    private static Connection connection(List<Object[]> rows, List<String> queries) {
        int[] at = {-1};
        ResultSet rs = proxy(ResultSet.class, (m, args) -> switch (m) {
            case "next" -> ++at[0] < rows.size();
            case "getInt" -> (Integer) rows.get(at[0])[(Integer) args[0] - 1];
            case "getString" -> String.valueOf(rows.get(at[0])[(Integer) args[0] - 1]);
            default -> null;
        });
        Statement st = proxy(Statement.class, (m, args) -> {
            if (m.equals("executeQuery")) {
                queries.add((String) args[0]);
                return rs;
            }
            return null;
        });
        return proxy(Connection.class, (m, args) -> m.equals("createStatement") ? st : null);
    }

    interface Handler {
        Object handle(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Handler h) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> h.handle(m.getName(), args)));
    }
}
