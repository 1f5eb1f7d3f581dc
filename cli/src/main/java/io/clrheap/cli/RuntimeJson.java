package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.runtime.Target;

/**
 * The {@code runtime} object of the JSON reports: which build the dump is, how that was read, and how the layout was
 * chosen (docs/schemas: the {@code runtime} property).
 */
final class RuntimeJson {

    private RuntimeJson() {
    }

    static ObjectNode of(Target target) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("version", target.version());
        target.identity().ifPresent(id -> {
            if (!id.fileVersion().isEmpty()) {
                n.put("fileVersion", id.fileVersion());
            }
            if (!id.commit().isEmpty()) {
                n.put("commit", id.commit());
            }
        });
        n.put("identifiedBy", target.versionSource());
        n.put("layout", target.layoutSource());
        n.put("os", target.layout().os());
        n.put("arch", target.layout().arch());
        n.put("gc", target.gc().id());
        n.put("module", target.module().fileName());
        return n;
    }
}
