package io.vstream.connect.core.position;

import java.util.Optional;

/**
 * The GTID flavor of a shard's server, named as Vitess names it in the prefix of a position
 * ({@code MariaDB/0-1-42}, {@code MySQL56/<uuid>:1-42}). The flavor decides how a position is parsed, compared
 * and advanced; positions of different flavors never compare.
 */
public enum Flavor {
    /** MariaDB 10.0+: one {@code domain-server-sequence} GTID per replication domain. */
    MARIADB("MariaDB"),
    /** MySQL 5.6 and later (8.0, 8.4): a set of transaction intervals per source server uuid. */
    MYSQL56("MySQL56");

    private final String vitessName;

    Flavor(String vitessName) {
        this.vitessName = vitessName;
    }

    /** The flavor's name as Vitess writes it, e.g. {@code MariaDB}. */
    public String vitessName() {
        return vitessName;
    }

    /** The prefix of a position in this flavor, e.g. {@code MariaDB/}. */
    public String prefix() {
        return vitessName + "/";
    }

    /** The flavor Vitess names {@code name} (case-sensitive, as Vitess), or empty when there is none. */
    public static Optional<Flavor> fromVitessName(String name) {
        for (Flavor flavor : values()) {
            if (flavor.vitessName.equals(name)) {
                return Optional.of(flavor);
            }
        }
        return Optional.empty();
    }
}
