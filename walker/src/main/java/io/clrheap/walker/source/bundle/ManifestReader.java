package io.clrheap.walker.source.bundle;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import io.clrheap.walker.source.elf.MappedFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and checks {@code manifest.json}. Every problem is a {@link DumpFormatException} naming the bundle, the
 * manifest and the key: {@code x.clrheap.tar.xz: manifest.json: memory[3].start: "0x12g" is not 0x + 1 to 16 hex
 * digits}.
 */
final class ManifestReader {

    private static final JsonMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final Pattern HEX = Pattern.compile("0x[0-9a-f]{1,16}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final int MAX_TEXT = 4096;
    /** The most threads a manifest may list: far more than any process the emulator builds (64) or real ones have. */
    static final int MAX_THREADS = 65_536;

    private final String source;
    private final BundleLimits limits;

    private ManifestReader(String source, BundleLimits limits) {
        this.source = source;
        this.limits = limits;
    }

    static BundleManifest read(byte[] json, String source, BundleLimits limits) throws DumpFormatException {
        return new ManifestReader(source, limits).read(json);
    }

    private BundleManifest read(byte[] json) throws DumpFormatException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            throw error(String.format("not valid JSON: %s (line %d, column %d)", e.getOriginalMessage(),
                    e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    e.getLocation() == null ? 0 : e.getLocation().getColumnNr()), e);
        } catch (java.io.IOException e) {
            throw error("not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw error("not a JSON object");
        }
        String format = text(root, "format");
        if (!format.equals(BundleManifest.FORMAT)) {
            throw error("format is '" + TarReader.printable(format) + "', not '" + BundleManifest.FORMAT + "'");
        }
        long version = integer(root, "formatVersion");
        if (version != BundleManifest.FORMAT_VERSION) {
            throw error("formatVersion " + version + " is not supported: this reader knows version " + BundleManifest.FORMAT_VERSION);
        }
        String scenario = text(root, "scenario");
        long seed = integer(root, "seed");
        String runtime = text(root, "runtime");
        String runtimeBuild = text(root, "runtimeBuild");
        String gc = text(root, "gc");
        String clrheapVersion = text(root, "clrheapVersion");

        List<MappedFile> mappings = new ArrayList<>();
        JsonNode mappingArray = array(root, "mappings");
        for (int i = 0; i < mappingArray.size(); i++) {
            JsonNode m = object(mappingArray.get(i), "mappings[" + i + "]");
            String where = "mappings[" + i + "]";
            long start = hex(m, "start", where);
            long end = hex(m, "end", where);
            long fileOffset = hex(m, "fileOffset", where);
            if (Long.compareUnsigned(start, end) >= 0) {
                throw error(String.format("%s: start 0x%x is not below end 0x%x", where, start, end));
            }
            if (m.has("permissions")) {
                text(m, "permissions", where);
            }
            mappings.add(new MappedFile(start, end, fileOffset, text(m, "path", where)));
        }

        List<OsThread> threads = threads(root);

        Map<String, BundleEntry> entries = new HashMap<>();
        List<BundleEntry> entryList = new ArrayList<>();
        long total = 0;
        JsonNode entryArray = array(root, "entries");
        for (int i = 0; i < entryArray.size(); i++) {
            String where = "entries[" + i + "]";
            JsonNode e = object(entryArray.get(i), where);
            String name = text(e, "name", where);
            String problem = EntryNames.problem(name);
            if (problem != null) {
                throw error(where + ": '" + TarReader.printable(name) + "' is " + problem);
            }
            if (name.equals(BundleManifest.NAME) || !EntryNames.isKnown(name)) {
                throw error(where + ": '" + name + "' is not an entry a format-1 bundle holds (memory/..., answer/..., "
                        + EntryNames.TYPE_NAMES + ")");
            }
            long size = integer(e, "size", where);
            if (size < 0 || size > limits.maxEntryBytes()) {
                throw error(String.format("%s: entry %s declares %d bytes; the cap is %d (BundleLimits.maxEntryBytes)",
                        where, name, size, limits.maxEntryBytes()));
            }
            if (name.equals(EntryNames.TYPE_NAMES) && size > limits.maxTypeNamesBytes()) {
                throw error(String.format("%s: entry %s declares %d bytes; the cap is %d (BundleLimits.maxTypeNamesBytes)",
                        where, name, size, limits.maxTypeNamesBytes()));
            }
            String sha = text(e, "sha256", where);
            if (!SHA256.matcher(sha).matches()) {
                throw error(where + ": sha256 '" + TarReader.printable(sha) + "' is not 64 lowercase hex digits");
            }
            BundleEntry entry = new BundleEntry(name, size, sha);
            if (entries.putIfAbsent(name, entry) != null) {
                throw error(where + ": entry " + name + " is listed twice");
            }
            entryList.add(entry);
            total += size; // each size is at most 2^63 / limits, and the count is capped: check the sum as it grows
            if (total < 0 || total > limits.maxTotalBytes()) {
                throw error(String.format("entries[0..%d] declare %s bytes in all, above the cap of %d "
                        + "(BundleLimits.maxTotalBytes)", i, total < 0 ? "2^63 or more" : Long.toString(total),
                        limits.maxTotalBytes()));
            }
        }

        List<BundleMemoryRange> memory = new ArrayList<>();
        Set<String> used = new HashSet<>();
        JsonNode memoryArray = array(root, "memory");
        for (int i = 0; i < memoryArray.size(); i++) {
            String where = "memory[" + i + "]";
            JsonNode r = object(memoryArray.get(i), where);
            long start = hex(r, "start", where);
            long length = integer(r, "length", where);
            String entryName = text(r, "entry", where);
            if (length <= 0) {
                throw error(where + ": length " + length + " is not positive");
            }
            if (Long.compareUnsigned(start + length, start) <= 0) {
                throw error(String.format("%s: [0x%x, +%d) runs past the top of the address space", where, start, length));
            }
            BundleEntry entry = entries.get(entryName);
            if (entry == null || !entryName.startsWith(EntryNames.MEMORY)) {
                throw error(where + ": its entry '" + TarReader.printable(entryName) + "' is not a memory/ entry listed in entries");
            }
            if (entry.size() != length) {
                throw error(String.format("%s: the range is %d bytes long but its entry %s is %d bytes", where, length,
                        entryName, entry.size()));
            }
            if (!used.add(entryName)) {
                throw error(where + ": entry " + entryName + " holds two memory ranges");
            }
            memory.add(new BundleMemoryRange(start, length, entryName));
        }
        for (BundleEntry e : entryList) {
            if (e.name().startsWith(EntryNames.MEMORY) && !used.contains(e.name())) {
                throw error("entry " + e.name() + " is listed but no memory range uses it");
            }
        }
        memory.sort(Comparator.comparing(BundleMemoryRange::start, Long::compareUnsigned));
        for (int i = 1; i < memory.size(); i++) {
            BundleMemoryRange a = memory.get(i - 1);
            BundleMemoryRange b = memory.get(i);
            if (Long.compareUnsigned(a.end(), b.start()) > 0) {
                throw error(String.format("memory ranges [0x%x, 0x%x) (%s) and [0x%x, 0x%x) (%s) overlap", a.start(), a.end(),
                        a.entry(), b.start(), b.end(), b.entry()));
            }
        }
        return new BundleManifest((int) version, scenario, seed, runtime, runtimeBuild, gc, clrheapVersion, mappings, threads, memory,
                entryList);
    }

    /**
     * The optional {@code threads}: each {@code {"osId": N, "stackBase": "0x...", "registers": {"rax": "0x...", ...,
     * "rip": "0x..."}}}, every {@link Register} named once and nothing else; at most {@link #MAX_THREADS}; none when
     * the key is absent (a bundle written before threads were).
     */
    private List<OsThread> threads(JsonNode root) throws DumpFormatException {
        if (!root.has("threads")) {
            return List.of();
        }
        JsonNode array = root.get("threads");
        if (!array.isArray()) {
            throw error("threads: not an array");
        }
        if (array.size() > MAX_THREADS) {
            throw error(String.format("threads: %d items; the cap is %d threads", array.size(), MAX_THREADS));
        }
        List<OsThread> threads = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            String where = "threads[" + i + "]";
            JsonNode t = object(array.get(i), where);
            long osId = integer(t, "osId", where);
            if (osId < 0 || !ids.add(osId)) {
                throw error(where + ".osId: " + osId + (osId < 0 ? " is negative" : " is another thread's too"));
            }
            long stackBase = hex(t, "stackBase", where);
            JsonNode registers = object(t.get("registers"), where + ".registers");
            if (registers.size() != Register.values().length) {
                throw error(String.format("%s.registers: %d registers; a thread's context has the %d of %s", where, registers.size(),
                        Register.values().length, java.util.Arrays.stream(Register.values()).map(Register::id).toList()));
            }
            RegisterSet.Builder set = new RegisterSet.Builder();
            for (Register r : Register.values()) {
                set.set(r, hex(registers, r.id(), where + ".registers"));
            }
            threads.add(new OsThread(osId, set.build(), stackBase));
        }
        return threads;
    }

    private JsonNode array(JsonNode node, String key) throws DumpFormatException {
        JsonNode value = node.get(key);
        if (value == null || !value.isArray()) {
            throw error(key + ": missing or not an array");
        }
        if (value.size() > limits.maxEntries()) {
            throw error(String.format("%s: %d items; the cap is %d (BundleLimits.maxEntries)", key, value.size(),
                    limits.maxEntries()));
        }
        return value;
    }

    private JsonNode object(JsonNode node, String where) throws DumpFormatException {
        if (node == null || !node.isObject()) {
            throw error(where + ": not an object");
        }
        return node;
    }

    private String text(JsonNode node, String key) throws DumpFormatException {
        return text(node, key, null);
    }

    private String text(JsonNode node, String key, String where) throws DumpFormatException {
        String at = where == null ? key : where + "." + key;
        JsonNode value = node.get(key);
        if (value == null || !value.isTextual()) {
            throw error(at + ": missing or not a string");
        }
        String text = value.textValue();
        if (text.length() > MAX_TEXT) {
            throw error(at + ": longer than " + MAX_TEXT + " characters");
        }
        return text;
    }

    private long integer(JsonNode node, String key) throws DumpFormatException {
        return integer(node, key, null);
    }

    private long integer(JsonNode node, String key, String where) throws DumpFormatException {
        String at = where == null ? key : where + "." + key;
        JsonNode value = node.get(key);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw error(at + ": missing or not a 64-bit integer");
        }
        return value.longValue();
    }

    private long hex(JsonNode node, String key, String where) throws DumpFormatException {
        String text = text(node, key, where);
        if (!HEX.matcher(text).matches()) {
            throw error(where + "." + key + ": '" + TarReader.printable(text) + "' is not 0x + 1 to 16 lowercase hex digits");
        }
        return Long.parseUnsignedLong(text.substring(2), 16);
    }

    private DumpFormatException error(String what) {
        return new DumpFormatException(source + ": " + BundleManifest.NAME + ": " + what);
    }

    private DumpFormatException error(String what, Throwable cause) {
        return new DumpFormatException(source + ": " + BundleManifest.NAME + ": " + what, cause);
    }
}
