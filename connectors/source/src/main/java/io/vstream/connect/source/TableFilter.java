package io.vstream.connect.source;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Decides which tables and columns of the keyspace's database are streamed: include and exclude lists of regular
 * expressions over table names (full match, case-insensitive), and an exclude list over {@code table.column}.
 */
public final class TableFilter {
    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final List<Pattern> excludeColumns;

    public TableFilter(List<String> include, List<String> exclude, List<String> excludeColumns) {
        this.include = compile(include);
        this.exclude = compile(exclude);
        this.excludeColumns = compile(excludeColumns);
    }

    /** Streams every table and column. */
    public static TableFilter all() {
        return new TableFilter(List.of(), List.of(), List.of());
    }

    private static List<Pattern> compile(List<String> regexes) {
        List<Pattern> out = new ArrayList<>();
        for (String r : regexes) {
            if (!r.isBlank()) {
                out.add(Pattern.compile(r.strip(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
            }
        }
        return out;
    }

    public boolean includesTable(String table) {
        if (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(table).matches())) {
            return false;
        }
        return exclude.stream().noneMatch(p -> p.matcher(table).matches());
    }

    public boolean includesColumn(String table, String column) {
        if (excludeColumns.isEmpty()) {
            return true;
        }
        String qualified = table + "." + column;
        return excludeColumns.stream().noneMatch(p -> p.matcher(qualified).matches());
    }
}
