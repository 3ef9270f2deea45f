package io.vstream.connect.core.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Renders a Kafka {@link ConfigDef} as a Markdown reference page: the page for {@code docs/reference/}, generated from
 * the code so that it cannot drift from it (see {@link ReferenceFile}). Pure text work: touches no server and no file.
 *
 * <p>The page is a title, an intro paragraph, then one section per ConfigDef group in the order the groups were
 * defined; inside a group the keys follow their {@code orderInGroup} (then their name). Keys defined without a group
 * come last, under "Other", sorted by name; a ConfigDef with no groups at all lists its keys directly. Internal keys
 * ({@link ConfigDef#defineInternal}) are left out, as Kafka's own documentation leaves them out. Each key shows its
 * name, full documentation, type, default, valid values (the validator's {@code toString()}), importance and display
 * name:
 *
 * <ul>
 *   <li>no default: {@code required}; an empty default: {@code ""}; a null default: {@code null}; any other
 *       {@code PASSWORD} default: {@code [hidden]} (even an empty one, so the page never hints at a secret);
 *   <li>a key without a validator has no "Valid values" line.
 * </ul>
 *
 * <p>The output is deterministic (same ConfigDef, title and intro give the same bytes), uses {@code \n} line ends
 * whatever the platform, and ends with one newline. Documentation text, display names and group names are escaped so
 * that Markdown shows them literally ({@code <shard>}, {@code *}, {@code [..]} and the like); values are shown as code
 * spans. The intro is Markdown written by the caller and is inserted as it is.
 */
public final class ConfigDocs {

    /** The first line of every page: tells an editor where the page comes from. */
    public static final String GENERATED_NOTICE =
            "<!-- Generated from code by io.vstream.connect.core.config.ConfigDocs: do not edit by hand. -->";

    static final String OTHER_GROUP = "Other";

    private static final Comparator<ConfigKey> IN_GROUP_ORDER =
            Comparator.<ConfigKey>comparingInt(k -> k.orderInGroup).thenComparing(k -> k.name);

    private ConfigDocs() {
    }

    /**
     * The Markdown page for {@code def}.
     *
     * @param title the page title (plain text; becomes the level-1 heading)
     * @param intro the paragraph under the title, as Markdown (inserted unchanged); null or blank for none
     * @param def the configuration to document
     */
    public static String toMarkdown(String title, String intro, ConfigDef def) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("A reference page needs a title");
        }
        if (def == null) {
            throw new IllegalArgumentException("No ConfigDef to document");
        }
        StringBuilder out = new StringBuilder(4096);
        out.append(GENERATED_NOTICE).append("\n\n");
        out.append("# ").append(text(title.strip())).append("\n");
        if (intro != null && !intro.isBlank()) {
            out.append('\n').append(normalizeNewlines(intro).strip()).append('\n');
        }
        Map<String, List<ConfigKey>> groups = groupedKeys(def);
        boolean headings = !(groups.size() == 1 && groups.containsKey(null));
        for (Map.Entry<String, List<ConfigKey>> group : groups.entrySet()) {
            String keyHeading = "## ";
            if (headings) {
                String name = group.getKey() == null ? OTHER_GROUP : group.getKey();
                out.append("\n## ").append(text(name)).append('\n');
                keyHeading = "### ";
            }
            for (ConfigKey key : group.getValue()) {
                appendKey(out, keyHeading, key);
            }
        }
        return out.toString();
    }

    /** The documented keys by group, groups in definition order, ungrouped keys (under {@code null}) last. */
    private static Map<String, List<ConfigKey>> groupedKeys(ConfigDef def) {
        Map<String, List<ConfigKey>> groups = new LinkedHashMap<>();
        for (String group : def.groups()) {
            groups.put(group, new ArrayList<>());
        }
        List<ConfigKey> ungrouped = new ArrayList<>();
        for (ConfigKey key : def.configKeys().values()) {
            if (key.internalConfig) {
                continue;
            }
            if (key.group == null) {
                ungrouped.add(key);
            } else {
                groups.computeIfAbsent(key.group, g -> new ArrayList<>()).add(key);
            }
        }
        groups.values().removeIf(List::isEmpty);
        groups.values().forEach(keys -> keys.sort(IN_GROUP_ORDER));
        if (!ungrouped.isEmpty()) {
            ungrouped.sort(Comparator.comparing(k -> k.name));
            groups.put(null, ungrouped);
        }
        return groups;
    }

    private static void appendKey(StringBuilder out, String heading, ConfigKey key) {
        out.append('\n').append(heading).append(code(key.name)).append('\n');
        if (key.documentation != null && !key.documentation.isBlank()) {
            out.append('\n').append(text(key.documentation)).append('\n');
        }
        out.append('\n');
        out.append("- Type: ").append(code(key.type.name().toLowerCase(Locale.ROOT))).append('\n');
        out.append("- Default: ").append(defaultValue(key)).append('\n');
        String valid = key.validator == null ? null : key.validator.toString();
        if (valid != null && !valid.isBlank()) {
            out.append("- Valid values: ").append(code(valid)).append('\n');
        }
        out.append("- Importance: ").append(key.importance.name().toLowerCase(Locale.ROOT)).append('\n');
        String display = key.displayName == null || key.displayName.isBlank() ? key.name : key.displayName;
        out.append("- Display name: ").append(text(display)).append('\n');
    }

    /** {@code required}, or the default as a code span: {@code ""} when empty, {@code [hidden]} for a password. */
    static String defaultValue(ConfigKey key) {
        if (!key.hasDefault()) {
            return "required";
        }
        if (key.defaultValue == null) {
            return code("null");
        }
        if (key.type == Type.PASSWORD) {
            return code("[hidden]");
        }
        String value = ConfigDef.convertToString(key.defaultValue, key.type);
        return code(value == null || value.isEmpty() ? "\"\"" : value);
    }

    /**
     * {@code value} as a Markdown code span, shown literally: the fence is one backtick longer than the longest run
     * of backticks inside, and line breaks become spaces (a code span is one line).
     */
    static String code(String value) {
        String v = normalizeNewlines(value).replace('\n', ' ');
        if (v.isEmpty()) {
            throw new IllegalArgumentException("An empty value has no code span; render it as \"\"");
        }
        int longest = 0;
        int run = 0;
        for (int i = 0; i < v.length(); i++) {
            run = v.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        boolean pad = v.startsWith("`") || v.endsWith("`")
                || (v.startsWith(" ") && v.endsWith(" ") && !v.isBlank());
        return pad ? fence + " " + v + " " + fence : fence + v + fence;
    }

    /**
     * Plain text as Markdown that renders it literally: inline markup characters are backslash-escaped ({@code _}
     * only where it could start or end emphasis, so {@code binlog_row_image} stays readable), each line is trimmed so
     * that nothing becomes a code block or a hard break, and a line that would open a heading, list or rule gets its
     * marker escaped. Blank lines (paragraph breaks) are kept.
     */
    static String text(String plain) {
        String[] lines = normalizeNewlines(plain).strip().split("\n", -1);
        StringBuilder out = new StringBuilder(plain.length() + 16);
        for (int l = 0; l < lines.length; l++) {
            if (l > 0) {
                out.append('\n');
            }
            String line = lines[l].strip();
            int blockMarker = blockMarker(line);
            for (int i = 0; i < line.length(); i++) {
                if (i == blockMarker || needsEscape(line, i)) {
                    out.append('\\');
                }
                out.append(line.charAt(i));
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(String line, int i) {
        char c = line.charAt(i);
        switch (c) {
            case '\\', '`', '*', '[', ']', '<', '>', '&', '~', '$', '|':
                return true;
            case '_':
                // Intra-word underscores never form emphasis; escape only at a word's edge.
                return !(i > 0 && Character.isLetterOrDigit(line.charAt(i - 1))
                        && i + 1 < line.length() && Character.isLetterOrDigit(line.charAt(i + 1)));
            default:
                return false;
        }
    }

    /**
     * The index of the character that would make {@code line} open a block (heading, list item, rule, setext
     * underline, ordered list item such as {@code 1. x}) if left unescaped; -1 if there is none.
     */
    private static int blockMarker(String line) {
        if (line.isEmpty()) {
            return -1;
        }
        char first = line.charAt(0);
        if (first == '#' || first == '-' || first == '+' || first == '=') {
            return 0;
        }
        int digits = 0;
        while (digits < line.length() && Character.isDigit(line.charAt(digits))) {
            digits++;
        }
        if (digits > 0 && digits < line.length() && (line.charAt(digits) == '.' || line.charAt(digits) == ')')) {
            return digits;
        }
        return -1;
    }

    private static String normalizeNewlines(String s) {
        return s.replace("\r\n", "\n").replace('\r', '\n');
    }
}
