package io.clrheap.generator.bundle;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import io.clrheap.emulator.module.ModuleMapping;
import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.ThreadStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The {@code manifest.json} of a bundle: what it was built from, the runtime module's file mappings, the threads
 * (each its OS id, its stack's base and its registers: what an ELF core's NT_PRSTATUS notes or a minidump's thread
 * list say), the memory ranges and the size and SHA-256 digest of every other entry. Written with a fixed key order, two-space indents and
 * {@code \n} line ends, so the same manifest gives the same bytes on every platform. Addresses are strings of
 * {@code 0x} + lowercase hex; sizes are decimal numbers.
 *
 * @param info         scenario, seed, runtime, GC flavour, clrheap version
 * @param runtimeBuild the runtime build the process emulates, e.g. {@code 8.0.30}
 * @param mappings     the runtime module's file mappings
 * @param threads      the threads' stacks and registers, in thread-store order
 * @param memory       the memory ranges, by address
 * @param entries      every entry but the manifest, in archive order
 */
public record BundleManifest(BundleInfo info, String runtimeBuild, List<ModuleMapping> mappings, List<ThreadStack> threads,
                             List<BundleRange> memory, List<BundleEntry> entries) {

    /** {@code format} of every bundle. */
    public static final String FORMAT = "clrheap-bundle";
    /** The version of the layout this writer produces; a reader refuses versions it does not know. */
    public static final int FORMAT_VERSION = 1;
    /** The manifest's entry name; it is the archive's first entry. */
    public static final String NAME = "manifest.json";

    public BundleManifest {
        mappings = List.copyOf(mappings);
        threads = List.copyOf(threads);
        memory = List.copyOf(memory);
        entries = List.copyOf(entries);
    }

    /** The manifest as UTF-8 JSON, ending with a line break. */
    public byte[] toJson() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter pretty = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withObjectIndenter(indenter).withArrayIndenter(indenter);
        try (JsonGenerator json = new JsonFactory().createGenerator(bytes, JsonEncoding.UTF8)) {
            json.setPrettyPrinter(pretty);
            json.writeStartObject();
            json.writeStringField("format", FORMAT);
            json.writeNumberField("formatVersion", FORMAT_VERSION);
            json.writeStringField("scenario", info.scenario());
            json.writeNumberField("seed", info.seed());
            json.writeStringField("runtime", info.runtime().shortName());
            json.writeStringField("runtimeBuild", runtimeBuild);
            json.writeStringField("gc", info.gc().id());
            json.writeStringField("clrheapVersion", info.clrheapVersion());
            json.writeArrayFieldStart("mappings");
            for (ModuleMapping m : mappings) {
                json.writeStartObject();
                json.writeStringField("path", m.path());
                json.writeStringField("start", hex(m.start()));
                json.writeStringField("end", hex(m.end()));
                json.writeStringField("fileOffset", hex(m.fileOffset()));
                json.writeStringField("permissions", m.permissions());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("threads");
            for (ThreadStack t : threads) {
                json.writeStartObject();
                json.writeNumberField("osId", t.osId());
                json.writeStringField("stackBase", hex(t.base()));
                json.writeObjectFieldStart("registers");
                for (CpuRegister r : CpuRegister.values()) {
                    json.writeStringField(r.id(), hex(t.register(r)));
                }
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("memory");
            for (BundleRange r : memory) {
                json.writeStartObject();
                json.writeStringField("start", hex(r.start()));
                json.writeNumberField("length", r.length());
                json.writeStringField("entry", r.entry());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("entries");
            for (BundleEntry e : entries) {
                json.writeStartObject();
                json.writeStringField("name", e.name());
                json.writeNumberField("size", e.size());
                json.writeStringField("sha256", e.sha256());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    private static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }
}
