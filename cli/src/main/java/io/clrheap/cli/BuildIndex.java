package io.clrheap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.BuildIdentity;
import io.clrheap.walker.source.PendingFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The profiles' {@code builds/index.json}: the build files the loader reads, by platform ({@code {"linux-x64": ["8.0.20", …]}},
 * docs/profiles.md). {@code derive-profile --into} lists a new build in it.
 */
final class BuildIndex {

    private BuildIndex() {
    }

    /** Lists {@code version} under {@code platform} (versions in numeric order, once each), rewriting the file atomically. */
    static void add(Path index, String platform, String version) throws IOException {
        JsonNode root = new ObjectMapper().readTree(Files.readString(index, StandardCharsets.UTF_8));
        if (root == null || !root.isObject()) {
            throw new IOException(index + ": not a JSON object");
        }
        Map<String, List<String>> platforms = new TreeMap<>();
        String comment = root.path("?").asText(null);
        for (var e : root.properties()) {
            if (e.getKey().equals("?")) {
                continue;
            }
            if (!e.getValue().isArray()) {
                throw new IOException(index + ": '" + e.getKey() + "' is not an array of versions");
            }
            List<String> versions = new ArrayList<>();
            e.getValue().forEach(v -> versions.add(v.asText()));
            platforms.put(e.getKey(), versions);
        }
        List<String> versions = platforms.computeIfAbsent(platform, k -> new ArrayList<>());
        if (!versions.contains(version)) {
            versions.add(version);
        }
        versions.sort(BuildIdentity::compareVersions);
        ObjectMapper json = new ObjectMapper();
        StringBuilder text = new StringBuilder("{\n");
        if (comment != null) {
            text.append("  \"?\": ").append(json.writeValueAsString(comment)).append(",\n");
        }
        int n = 0;
        for (var e : platforms.entrySet()) {
            text.append("  ").append(json.writeValueAsString(e.getKey())).append(": [");
            for (int i = 0; i < e.getValue().size(); i++) {
                text.append(i == 0 ? "" : ", ").append(json.writeValueAsString(e.getValue().get(i)));
            }
            text.append(']').append(++n < platforms.size() ? "," : "").append('\n');
        }
        text.append("}\n");
        // under a hidden temporary name beside it until complete: a reader never sees half an index
        PendingFile.write(index, partial -> Files.writeString(partial, text, StandardCharsets.UTF_8));
    }
}
