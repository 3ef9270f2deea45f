package io.vstream.connect.transforms;

import io.vstream.connect.core.config.ConfigDocs;
import io.vstream.connect.core.config.ReferenceFile;
import io.vstream.connect.transforms.predicates.EventTypeIs;
import io.vstream.connect.transforms.predicates.IsControlEvent;
import io.vstream.connect.transforms.predicates.IsRowEvent;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Keeps one generated page per SMT and predicate in {@code docs/reference/} exactly what {@link ConfigDocs} renders
 * from its {@code CONFIG_DEF} (run with {@code -Ddocs.update=true} to rewrite them). Files only.
 */
class ConfigReferenceTest {
    private static final String GUIDE = " How to chain it, with examples: [transforms.md](../transforms.md).";

    private static void check(String page, String title, Class<?> plugin, String what, ConfigDef def) {
        ReferenceFile.check(Path.of("../docs/reference/" + page), ConfigDocs.toMarkdown(title,
                "The settings of `" + plugin.getName() + "`, " + what + "." + GUIDE, def),
                ReferenceFile.updateCommand("transforms", ConfigReferenceTest.class));
    }

    @Test
    void extractNewRow() {
        check("transform-extract-new-row.md", "ExtractNewRow configuration", ExtractNewRow.class,
                "the SMT that turns our row events into flat rows", ExtractNewRow.CONFIG_DEF);
    }

    @Test
    void shardToTableRouter() {
        check("transform-shard-to-table-router.md", "ShardToTableRouter configuration", ShardToTableRouter.class,
                "the SMT that routes the per-shard logs to per-table topics keyed by the primary key",
                ShardToTableRouter.CONFIG_DEF);
    }

    @Test
    void keyspaceIdHeader() {
        check("transform-keyspace-id-header.md", "KeyspaceIdHeader configuration", KeyspaceIdHeader.class,
                "the SMT that computes a row's keyspace id with a vindex (header, or filter by key range)",
                KeyspaceIdHeader.CONFIG_DEF);
    }

    @Test
    void predicates() {
        check("predicate-event-type-is.md", "EventTypeIs configuration", EventTypeIs.class,
                "the predicate that matches records of given event types", EventTypeIs.CONFIG_DEF);
        check("predicate-is-row-event.md", "IsRowEvent configuration", IsRowEvent.class,
                "the predicate that matches row events (it has no settings)", IsRowEvent.CONFIG_DEF);
        check("predicate-is-control-event.md", "IsControlEvent configuration", IsControlEvent.class,
                "the predicate that matches control events (it has no settings)", IsControlEvent.CONFIG_DEF);
    }
}
