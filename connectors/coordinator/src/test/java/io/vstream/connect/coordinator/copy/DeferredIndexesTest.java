package io.vstream.connect.coordinator.copy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeferredIndexesTest {
    private static final String ORDERS = "CREATE TABLE `_orders_gho` (\n"
            + "  `id` bigint(20) NOT NULL,\n"
            + "  `k` int(11) NOT NULL,\n"
            + "  `sku` varchar(32) NOT NULL,\n"
            + "  `amount` decimal(14,2) NOT NULL,\n"
            + "  PRIMARY KEY (`id`),\n"
            + "  UNIQUE KEY `u_sku` (`sku`),\n"
            + "  KEY `k` (`k`),\n"
            + "  KEY `we``ird` (`k`,`amount`) COMMENT 'a, b',\n"
            + "  KEY `pre` (`sku`(8)) IGNORED\n"
            + ") ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4";

    @Test
    void defersThePlainKeysAsTheDefinitionWritesThemAndKeepsUniqueAndPrimaryKeys() {
        assertThat(DeferredIndexes.deferrable(ORDERS)).containsExactly("KEY `k` (`k`)",
                "KEY `we``ird` (`k`,`amount`) COMMENT 'a, b'", "KEY `pre` (`sku`(8)) IGNORED");
    }

    @Test
    void readsKeyNamesWithDoubledBackquotes() {
        assertThat(DeferredIndexes.keyName("KEY `k` (`k`)")).isEqualTo("k");
        assertThat(DeferredIndexes.keyName("KEY `we``ird` (`k`,`amount`) COMMENT 'a, b'")).isEqualTo("we`ird");
    }

    @Test
    void defersNothingWhenTheOrderOfTheKeysCouldDependOnHowTheyWereAdded() {
        assertThat(DeferredIndexes.deferrable(ORDERS.replace("  KEY `k` (`k`),\n",
                "  KEY `k` (`k`),\n  FULLTEXT KEY `ft` (`sku`),\n"))).isEmpty();
        assertThat(DeferredIndexes.deferrable(ORDERS.replace("  KEY `k` (`k`),\n",
                "  KEY `k` (`k`),\n  SPATIAL KEY `g` (`pt`),\n"))).isEmpty();
        assertThat(DeferredIndexes.deferrable(ORDERS.replace("  UNIQUE KEY `u_sku` (`sku`),\n",
                "  UNIQUE KEY `u_sku` (`sku`) USING HASH,\n"))).isEmpty();
        assertThat(DeferredIndexes.deferrable(ORDERS.replace("  KEY `pre` (`sku`(8)) IGNORED\n",
                "  KEY `pre` (`sku`(8)) IGNORED,\n  CONSTRAINT `fk` FOREIGN KEY (`k`) REFERENCES `p` (`id`)\n")))
                .isEmpty();
    }

    @Test
    void defersNothingWithoutPlainKeys() {
        assertThat(DeferredIndexes.deferrable("CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  PRIMARY KEY (`id`)\n"
                + ") ENGINE=InnoDB")).isEmpty();
    }

    @Test
    void comparesDefinitionsWithoutTheNameLineAndTheAutoIncrementCounter() {
        String later = ORDERS.replace("AUTO_INCREMENT=42", "AUTO_INCREMENT=90210").replace("`_orders_gho`",
                "`orders`");
        assertThat(DeferredIndexes.normalize(later)).isEqualTo(DeferredIndexes.normalize(ORDERS));
        assertThat(DeferredIndexes.normalize(ORDERS.replace("KEY `k` (`k`),\n", "")))
                .isNotEqualTo(DeferredIndexes.normalize(ORDERS));
    }
}
