package io.vstream.connect.coordinator;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the connected account may do, read from its own {@code SHOW GRANTS} (MariaDB spelling), so that a workflow can
 * name a missing privilege before it starts instead of failing half-way (gh-ost inspects its grants the same way).
 * Global privileges and database-level ones (with {@code %}/{@code _} patterns) are understood; privileges that come
 * through a role cannot be seen this way: {@link #viaRoles()} says when the verdict may be incomplete. Reads only.
 */
final class AccountGrants {
    private static final Pattern GRANT = Pattern.compile(
            "^GRANT (.+?) ON (\\*|`(?:[^`]|``)+`|[^.\\s]+)\\.(\\*|`(?:[^`]|``)+`|\\S+) TO ", Pattern.CASE_INSENSITIVE);
    private static final Pattern ROLE_GRANT = Pattern.compile("^GRANT `[^`]+`(@`[^`]*`)? TO ",
            Pattern.CASE_INSENSITIVE);

    private final String account;
    private final Set<String> global;
    private final Map<String, Set<String>> databases;
    private final boolean viaRoles;

    private AccountGrants(String account, Set<String> global, Map<String, Set<String>> databases, boolean viaRoles) {
        this.account = account;
        this.global = global;
        this.databases = databases;
        this.viaRoles = viaRoles;
    }

    /** The grants of the account {@code conn} is logged in as. */
    static AccountGrants of(Connection conn) throws SQLException {
        String account = Servers.string(conn, "SELECT CURRENT_USER()");
        List<String> lines = new ArrayList<>();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SHOW GRANTS")) {
            while (rs.next()) {
                lines.add(rs.getString(1));
            }
        }
        return parse(account, lines);
    }

    static AccountGrants parse(String account, List<String> showGrants) {
        Set<String> global = new HashSet<>();
        Map<String, Set<String>> databases = new HashMap<>();
        boolean roles = false;
        for (String line : showGrants) {
            String l = line.strip();
            if (ROLE_GRANT.matcher(l).find()) {
                roles = true;
                continue;
            }
            Matcher m = GRANT.matcher(l);
            if (!m.find() || l.toUpperCase(Locale.ROOT).contains(" TO PUBLIC")) {
                continue; // PUBLIC's grants are the anonymous defaults (`test`.*): not the account's own
            }
            Set<String> privileges = privileges(m.group(1));
            String db = unquote(m.group(2));
            String table = unquote(m.group(3));
            if (!table.equals("*")) {
                continue; // table-level grants are not needed by the checks made with this
            }
            if (db.equals("*")) {
                global.addAll(privileges);
            } else {
                databases.computeIfAbsent(db, k -> new HashSet<>()).addAll(privileges);
            }
        }
        return new AccountGrants(account, global, databases, roles);
    }

    private static Set<String> privileges(String list) {
        Set<String> out = new HashSet<>();
        for (String p : list.split(",")) {
            String name = p.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
            int paren = name.indexOf('(');
            out.add(paren > 0 ? name.substring(0, paren).strip() : name); // column lists: "SELECT (a, b)"
        }
        return out;
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && name.startsWith("`") && name.endsWith("`")) {
            return name.substring(1, name.length() - 1).replace("``", "`");
        }
        return name;
    }

    /** The account as the server names it ({@code user@host}). */
    String account() {
        return account;
    }

    /** Whether the account also holds roles, whose privileges {@code SHOW GRANTS} does not list here. */
    boolean viaRoles() {
        return viaRoles;
    }

    /** Whether the account holds {@code privilege} on {@code *.*} (or ALL, or one of {@code alternatives}). */
    boolean hasGlobal(String privilege, String... alternatives) {
        if (global.contains("ALL PRIVILEGES") || global.contains("ALL") || global.contains(privilege)) {
            return true;
        }
        for (String a : alternatives) {
            if (global.contains(a)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the account holds {@code privilege} on every table of {@code database} (globally or on the database). */
    boolean hasOnDatabase(String privilege, String database) {
        if (hasGlobal(privilege)) {
            return true;
        }
        for (Map.Entry<String, Set<String>> e : databases.entrySet()) {
            Set<String> p = e.getValue();
            if ((p.contains(privilege) || p.contains("ALL PRIVILEGES") || p.contains("ALL"))
                    && matches(e.getKey(), database)) {
                return true;
            }
        }
        return false;
    }

    /** A database name of a grant against a database: {@code %} and {@code _} are wildcards unless escaped. */
    static boolean matches(String grantDb, String database) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < grantDb.length(); i++) {
            char c = grantDb.charAt(i);
            if (c == '\\' && i + 1 < grantDb.length()) {
                regex.append(Pattern.quote(String.valueOf(grantDb.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE).matcher(database).matches();
    }

    /**
     * The missing privileges among {@code needed} (each "PRIVILEGE" for {@code *.*} or "PRIVILEGE ON db" for a
     * database), as {@code GRANT} statements to run; empty when all are held.
     */
    List<String> missing(List<Need> needed) {
        List<String> out = new ArrayList<>();
        for (Need n : needed) {
            boolean held = n.database() == null ? hasGlobal(n.privilege(), n.alternatives())
                    : hasOnDatabase(n.privilege(), n.database());
            if (!held) {
                out.add("GRANT " + n.privilege() + " ON " + (n.database() == null ? "*.*"
                        : io.vstream.connect.core.sql.SqlIdentifiers.quote(n.database()) + ".*") + " TO " + quoted()
                        + " (" + n.why() + ")");
            }
        }
        return out;
    }

    private String quoted() {
        int at = account.lastIndexOf('@');
        return at < 0 ? "'" + account + "'" : "'" + account.substring(0, at) + "'@'" + account.substring(at + 1) + "'";
    }

    /** One privilege a workflow needs, and why. */
    record Need(String privilege, String database, String why, String... alternatives) {
        static Need global(String privilege, String why, String... alternatives) {
            return new Need(privilege, null, why, alternatives);
        }

        static Need on(String database, String privilege, String why) {
            return new Need(privilege, database, why);
        }
    }
}
