package io.vstream.connect.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.junit.jupiter.api.Test;

class ConfigDocsTest {

    /** Two groups, defined out of their in-group order, with every kind of default. */
    private static ConfigDef sample() {
        ConfigDef def = new ConfigDef();
        def.define("b.port", Type.INT, 3306, ConfigDef.Range.between(1, 65535), Importance.MEDIUM,
                "The port.", "Server", 2, Width.SHORT, "Port");
        def.define("a.host", Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, "The host, as <host> or <ip>.", "Server", 1, Width.MEDIUM, "Host");
        def.define("secret", Type.PASSWORD, "s3cr3t", Importance.HIGH, "The password.", "Server", 3, Width.MEDIUM,
                "Password");
        def.define("tables", Type.LIST, "", Importance.LOW, "Tables, e.g. *_log.", "Filters", 2, Width.LONG,
                "Tables");
        def.define("mode", Type.STRING, "fast", ConfigDef.ValidString.in("fast", "safe"), Importance.LOW,
                "How: 'fast' or 'safe'.", "Filters", 1, Width.SHORT, "Mode");
        def.define("columns", Type.LIST, List.of("id", "name"), Importance.LOW, "Columns.", "Filters", 3,
                Width.LONG, "Columns");
        return def;
    }

    @Test
    void rendersGroupsInOrderWithEveryField() {
        String md = ConfigDocs.toMarkdown("Sample configuration", "Settings of the `Sample` connector.", sample());

        assertThat(md).isEqualTo("""
                <!-- Generated from code by io.vstream.connect.core.config.ConfigDocs: do not edit by hand. -->

                # Sample configuration

                Settings of the `Sample` connector.

                ## Server

                ### `a.host`

                The host, as \\<host\\> or \\<ip\\>.

                - Type: `string`
                - Default: required
                - Valid values: `non-empty string`
                - Importance: high
                - Display name: Host

                ### `b.port`

                The port.

                - Type: `int`
                - Default: `3306`
                - Valid values: `[1,...,65535]`
                - Importance: medium
                - Display name: Port

                ### `secret`

                The password.

                - Type: `password`
                - Default: `[hidden]`
                - Importance: high
                - Display name: Password

                ## Filters

                ### `mode`

                How: 'fast' or 'safe'.

                - Type: `string`
                - Default: `fast`
                - Valid values: `[fast, safe]`
                - Importance: low
                - Display name: Mode

                ### `tables`

                Tables, e.g. \\*\\_log.

                - Type: `list`
                - Default: `""`
                - Importance: low
                - Display name: Tables

                ### `columns`

                Columns.

                - Type: `list`
                - Default: `id,name`
                - Importance: low
                - Display name: Columns
                """);
    }

    @Test
    void sameInputGivesSameBytes() {
        byte[] first = ConfigDocs.toMarkdown("T", "I", sample()).getBytes(StandardCharsets.UTF_8);
        byte[] second = ConfigDocs.toMarkdown("T", "I", sample()).getBytes(StandardCharsets.UTF_8);
        ConfigDef same = sample();
        byte[] third = ConfigDocs.toMarkdown("T", "I", same).getBytes(StandardCharsets.UTF_8);
        byte[] fourth = ConfigDocs.toMarkdown("T", "I", same).getBytes(StandardCharsets.UTF_8);

        assertThat(second).isEqualTo(first);
        assertThat(third).isEqualTo(first);
        assertThat(fourth).isEqualTo(first);
        assertThat(new String(first, StandardCharsets.UTF_8)).doesNotContain("\r").endsWith("\n").doesNotEndWith("\n\n");
    }

    @Test
    void passwordDefaultIsHiddenEvenWhenEmpty() {
        ConfigDef def = new ConfigDef().define("password", Type.PASSWORD, "", Importance.HIGH, "The password.");

        assertThat(ConfigDocs.defaultValue(def.configKeys().get("password"))).isEqualTo("`[hidden]`");
        assertThat(ConfigDocs.toMarkdown("T", null, def)).doesNotContain("`\"\"`");
    }

    @Test
    void showsNullAndEmptyDefaultsDistinctly() {
        ConfigDef def = new ConfigDef()
                .define("nothing", Type.STRING, null, Importance.LOW, "Null by default.")
                .define("empty", Type.STRING, "", Importance.LOW, "Empty by default.")
                .define("needed", Type.STRING, Importance.LOW, "No default.");

        assertThat(ConfigDocs.defaultValue(def.configKeys().get("nothing"))).isEqualTo("`null`");
        assertThat(ConfigDocs.defaultValue(def.configKeys().get("empty"))).isEqualTo("`\"\"`");
        assertThat(ConfigDocs.defaultValue(def.configKeys().get("needed"))).isEqualTo("required");
    }

    @Test
    void ungroupedKeysComeLastUnderOtherAndInternalKeysAreLeftOut() {
        ConfigDef def = new ConfigDef()
                .define("z.loose", Type.INT, 1, Importance.LOW, "Ungrouped z.")
                .define("grouped", Type.INT, 1, Importance.LOW, "Grouped.", "Main", 1, Width.SHORT, "Grouped")
                .define("a.loose", Type.INT, 1, Importance.LOW, "Ungrouped a.")
                .defineInternal("internal.only", Type.INT, 1, Importance.LOW);

        String md = ConfigDocs.toMarkdown("T", null, def);

        assertThat(md).doesNotContain("internal.only");
        assertThat(md.indexOf("## Main")).isLessThan(md.indexOf("## Other"));
        assertThat(md.indexOf("### `grouped`")).isLessThan(md.indexOf("## Other"));
        assertThat(md.indexOf("## Other")).isLessThan(md.indexOf("### `a.loose`"));
        assertThat(md.indexOf("### `a.loose`")).isLessThan(md.indexOf("### `z.loose`"));
    }

    @Test
    void aConfigDefWithoutGroupsListsItsKeysDirectly() {
        ConfigDef def = new ConfigDef()
                .define("field", Type.STRING, "", Importance.HIGH, "The field.")
                .define("flag", Type.BOOLEAN, false, Importance.LOW, "A flag.");

        String md = ConfigDocs.toMarkdown("Transform", "", def);

        assertThat(md).doesNotContain("## Other").doesNotContain("###");
        assertThat(md).contains("\n## `field`\n", "\n## `flag`\n", "- Default: `false`");
        assertThat(md).startsWith(ConfigDocs.GENERATED_NOTICE + "\n\n# Transform\n\n## `field`\n");
    }

    @Test
    void keyWithoutValidatorHasNoValidValuesLine() {
        ConfigDef def = new ConfigDef().define("x", Type.LONG, 5L, Importance.LOW, "X.");

        assertThat(ConfigDocs.toMarkdown("T", null, def)).doesNotContain("Valid values");
    }

    @Test
    void displayNameFallsBackToTheKeyName() {
        ConfigDef def = new ConfigDef().define("plain.key", Type.LONG, 5L, Importance.LOW, "X.");

        assertThat(ConfigDocs.toMarkdown("T", null, def)).contains("- Display name: plain.key\n");
    }

    @Test
    void introIsInsertedAsMarkdownAndTitleAsText() {
        String md = ConfigDocs.toMarkdown("A *starred* title", "See [the guide](../guide.md) for `x`.\r\n",
                new ConfigDef());

        assertThat(md).contains("# A \\*starred\\* title\n\nSee [the guide](../guide.md) for `x`.\n");
    }

    @Test
    void escapesDocTextSoMarkdownShowsItLiterally() {
        assertThat(ConfigDocs.text("<shard>=<host>:<port>")).isEqualTo("\\<shard\\>=\\<host\\>:\\<port\\>");
        assertThat(ConfigDocs.text("binlog_row_image must be FULL")).isEqualTo("binlog_row_image must be FULL");
        assertThat(ConfigDocs.text("_emphasis_ and *strong*")).isEqualTo("\\_emphasis\\_ and \\*strong\\*");
        assertThat(ConfigDocs.text("a [link](x) & `code` ~~x~~ $x$ a|b \\"))
                .isEqualTo("a \\[link\\](x) \\& \\`code\\` \\~\\~x\\~\\~ \\$x\\$ a\\|b \\\\");
        assertThat(ConfigDocs.text("{\"shard_gtids\":[...]}")).isEqualTo("{\"shard_gtids\":\\[...\\]}");
    }

    @Test
    void escapesLinesThatWouldOpenABlock() {
        assertThat(ConfigDocs.text("First line.\n# not a heading\n- not a list\n+ nor this\n===\n2. not ordered\n"
                + "10) nor this\n    not code"))
                .isEqualTo("First line.\n\\# not a heading\n\\- not a list\n\\+ nor this\n\\===\n2\\. not ordered\n"
                        + "10\\) nor this\nnot code");
        assertThat(ConfigDocs.text("Para one.\r\n\r\nPara two.")).isEqualTo("Para one.\n\nPara two.");
        assertThat(ConfigDocs.text("2024 was a year.")).isEqualTo("2024 was a year.");
    }

    @Test
    void codeSpansSurviveBackticksAndLineBreaks() {
        assertThat(ConfigDocs.code("plain")).isEqualTo("`plain`");
        assertThat(ConfigDocs.code("a`b")).isEqualTo("``a`b``");
        assertThat(ConfigDocs.code("`x`")).isEqualTo("`` `x` ``");
        assertThat(ConfigDocs.code("a``b`")).isEqualTo("``` a``b` ```");
        assertThat(ConfigDocs.code("one\ntwo")).isEqualTo("`one two`");
        assertThatThrownBy(() -> ConfigDocs.code("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesAMissingTitleOrConfigDef() {
        assertThatThrownBy(() -> ConfigDocs.toMarkdown(" ", "x", new ConfigDef()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("title");
        assertThatThrownBy(() -> ConfigDocs.toMarkdown("T", "x", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ConfigDef");
    }
}
