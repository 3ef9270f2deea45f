package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlIdentifiersTest {

    private static final String[] HOSTILE = {
            "orders", "select", "order", "`", "``", "a`b", "`; DROP TABLE t; --", "a.b", "a b", " lead", "trail ",
            "semi;colon", "-- comment", "/* c */", "it's", "\"dq\"", "back\\slash", "ünïcödé", "表", "emoji😀",
            "new\nline", "tab\there", "`.`", "x`.`y", "*/", "?", "$1", "%s"
    };

    @Test
    void quotesWithBackticksAndDoublesEmbeddedOnes() {
        assertThat(SqlIdentifiers.quote("orders")).isEqualTo("`orders`");
        assertThat(SqlIdentifiers.quote("order")).isEqualTo("`order`");
        assertThat(SqlIdentifiers.quote("a`b")).isEqualTo("`a``b`");
        assertThat(SqlIdentifiers.quote("`")).isEqualTo("````");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "orders", "select", "order", "`", "``", "a`b", "`; DROP TABLE t; --", "a.b", "a b", " lead", "trail ",
            "semi;colon", "-- comment", "/* c */", "it's", "\"dq\"", "back\\slash", "ünïcödé", "表", "emoji😀",
            "new\nline", "tab\there", "`.`", "x`.`y", "*/", "?", "$1", "%s"
    })
    void roundTripsHostileNames(String name) {
        String quoted = SqlIdentifiers.quote(name);
        assertThat(SqlIdentifiers.unquote(quoted)).isEqualTo(name);
        assertThat(lex(quoted)).containsExactly(name); // one identifier token, nothing left over
    }

    @Test
    void qualifiedNamesParseBackToTheirTwoParts() {
        for (String db : HOSTILE) {
            for (String table : HOSTILE) {
                assertThat(lex(SqlIdentifiers.qualify(db, table))).containsExactly(db, ".", table);
            }
        }
    }

    @Test
    void quotedNamesCannotEscapeAStatement() {
        String sql = "SELECT " + SqlIdentifiers.quoteList(List.of(HOSTILE)) + " FROM "
                + SqlIdentifiers.qualify("db`; --", "t`) OR 1=1 --") + " WHERE 1";
        List<String> tokens = lex(sql.substring("SELECT ".length(), sql.indexOf(" FROM ")));
        List<String> expected = new ArrayList<>();
        for (String name : HOSTILE) {
            expected.add(name);
            expected.add(",");
        }
        expected.remove(expected.size() - 1);
        assertThat(tokens).isEqualTo(expected);
        assertThat(sql).endsWith(" WHERE 1");
        assertThat(lex(sql.substring(sql.indexOf(" FROM ") + 6, sql.lastIndexOf(" WHERE 1"))))
                .containsExactly("db`; --", ".", "t`) OR 1=1 --");
    }

    @Test
    void quoteListJoinsWithCommas() {
        assertThat(SqlIdentifiers.quoteList(List.of("id", "a`b"))).isEqualTo("`id`, `a``b`");
        assertThatThrownBy(() -> SqlIdentifiers.quoteList(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsNullEmptyAndNul() {
        assertThatThrownBy(() -> SqlIdentifiers.quote(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> SqlIdentifiers.quote("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> SqlIdentifiers.quote("a\0b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL").hasMessageContaining("index 1");
        assertThatThrownBy(() -> SqlIdentifiers.qualify("db", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders", "`orders", "orders`", "``", "`a`b`", "`a``", "`a`.`b`"})
    void unquoteRejectsAnythingButOneQuotedIdentifier(String text) {
        assertThatThrownBy(() -> SqlIdentifiers.unquote(text)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A MySQL lexer reduced to what follows a quoted identifier: backtick identifiers (a doubled backtick is a
     * backtick), and the separators {@code .} and {@code ,} with optional spaces. Anything else fails the test.
     */
    private static List<String> lex(String text) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ') {
                i++;
            } else if (c == '.' || c == ',') {
                tokens.add(String.valueOf(c));
                i++;
            } else if (c == '`') {
                StringBuilder name = new StringBuilder();
                i++;
                while (true) {
                    if (i >= text.length()) {
                        throw new AssertionError("unterminated identifier in " + text);
                    }
                    char d = text.charAt(i);
                    if (d == '`' && i + 1 < text.length() && text.charAt(i + 1) == '`') {
                        name.append('`');
                        i += 2;
                    } else if (d == '`') {
                        i++;
                        break;
                    } else {
                        name.append(d);
                        i++;
                    }
                }
                tokens.add(name.toString());
            } else {
                throw new AssertionError("unexpected '" + c + "' at " + i + " outside any identifier in " + text);
            }
        }
        return tokens;
    }
}
