package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.sql.SqlTag;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wrapper's handling of SQL text, over a recorder standing in for the driver (what reaches a real server is
 * checked by OnlineDdlIT through the server's general log): untagged statements get the connection's role, tagged
 * ones keep theirs, and a statement's connection is the wrapper.
 */
class TaggedConnectionTest {
    private final List<String> sent = new ArrayList<>();

    private Connection recorder() {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, m, args) -> switch (m.getName()) {
                    case "prepareStatement", "prepareCall" -> {
                        sent.add((String) args[0]);
                        yield Proxy.newProxyInstance(getClass().getClassLoader(),
                                new Class<?>[] {PreparedStatement.class}, (p, pm, pa) -> null);
                    }
                    case "createStatement" -> Proxy.newProxyInstance(getClass().getClassLoader(),
                            new Class<?>[] {Statement.class}, (p, sm, sa) -> {
                                if (sa != null && sa.length > 0 && sa[0] instanceof String sql) {
                                    sent.add(sm.getName() + ": " + sql);
                                }
                                return sm.getReturnType() == boolean.class ? Boolean.FALSE
                                        : sm.getReturnType() == int.class ? 0 : null;
                            });
                    case "isClosed" -> Boolean.FALSE;
                    default -> null;
                });
    }

    @Test
    void tagsEveryStatementThatHasNoTagOfItsOwn() throws Exception {
        Connection c = TaggedConnection.wrap(recorder(), "coordinator");
        c.prepareStatement("SELECT 1");
        c.prepareStatement(SqlTag.tag("cutover", "LOCK TABLES t WRITE"));
        c.prepareStatement("  /* vstream-connect:copy */ INSERT INTO t SELECT 1", Statement.RETURN_GENERATED_KEYS);
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION time_zone = '+00:00'");
            st.executeUpdate("DELETE FROM t");
            st.addBatch("INSERT INTO t VALUES (1)");
            st.executeQuery(SqlTag.tag("checksum", "SELECT 2"));
            assertThat(st.getConnection()).isSameAs(c);
        }
        assertThat(sent).containsExactly(
                "/* vstream-connect:coordinator */ SELECT 1",
                "/* vstream-connect:cutover */ LOCK TABLES t WRITE",
                "  /* vstream-connect:copy */ INSERT INTO t SELECT 1",
                "execute: /* vstream-connect:coordinator */ SET SESSION time_zone = '+00:00'",
                "executeUpdate: /* vstream-connect:coordinator */ DELETE FROM t",
                "addBatch: /* vstream-connect:coordinator */ INSERT INTO t VALUES (1)",
                "executeQuery: /* vstream-connect:checksum */ SELECT 2");
    }

    @Test
    void passesEverythingElseThrough() throws Exception {
        Connection raw = recorder();
        Connection c = TaggedConnection.wrap(raw, "sink");
        assertThat(c.isClosed()).isFalse();
        assertThat(c).isEqualTo(c).isNotEqualTo(raw);
        assertThat(c.toString()).startsWith("tagged ");
        assertThat(TaggedConnection.tagged("/* vstream-connect:x */ SELECT 1")).isTrue();
        assertThat(TaggedConnection.tagged("/* other */ SELECT 1")).isFalse();
    }
}
