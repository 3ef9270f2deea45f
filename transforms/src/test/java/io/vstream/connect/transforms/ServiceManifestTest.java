package io.vstream.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import io.vstream.connect.core.Version;
import io.vstream.connect.transforms.predicates.EventTypeIs;
import io.vstream.connect.transforms.predicates.IsControlEvent;
import io.vstream.connect.transforms.predicates.IsRowEvent;
import java.util.ServiceLoader;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.transforms.Transformation;
import org.apache.kafka.connect.transforms.predicates.Predicate;
import org.junit.jupiter.api.Test;

/** Workers with plugin.discovery=service_load find the plugins only through these manifests. */
class ServiceManifestTest {

    @Test
    @SuppressWarnings("rawtypes")
    void everyTransformIsListedAndReportsTheBuildVersion() {
        var found = ServiceLoader.load(Transformation.class).stream().map(ServiceLoader.Provider::get)
                .filter(t -> t.getClass().getPackageName().startsWith("io.vstream")).toList();
        assertThat(found).extracting(Object::getClass).containsExactlyInAnyOrder(ExtractNewRow.class,
                ShardToTableRouter.class, KeyspaceIdHeader.class);
        assertThat(found).allSatisfy(t -> {
            assertThat(t).isInstanceOf(Versioned.class);
            assertThat(((Versioned) t).version()).isEqualTo(Version.get());
        });
    }

    @Test
    @SuppressWarnings("rawtypes")
    void everyPredicateIsListedAndReportsTheBuildVersion() {
        var found = ServiceLoader.load(Predicate.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.getClass().getPackageName().startsWith("io.vstream")).toList();
        assertThat(found).extracting(Object::getClass).containsExactlyInAnyOrder(IsRowEvent.class,
                IsControlEvent.class, EventTypeIs.class);
        assertThat(found).allSatisfy(p -> assertThat(((Versioned) p).version()).isEqualTo(Version.get()));
    }
}
