package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.elf.MappedFile;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a real dump's build is named and its layout chosen (docs/reference/discovery.md section 3): by the sccsid string the
 * runtime module carries in its data, then DotNetRuntimeInfo, then the table's length; a build clrheap has no layout of
 * is walked with its nearest known build's only after validating, and says so.
 */
class BuildIdentificationRealDumpTest {

    private static final ProfileLoader PROFILES = ProfileLoader.builtIn();

    private static Target open(RealDump dump, PatchedMemory memory) throws TargetException {
        return new TargetOpener(PROFILES).open(memory, dump.core.mappedFiles(), Optional.empty());
    }

    /** Where {@code text} first lies in the writable data of the mapped file {@code module} (the single-file host of net10-small). */
    private static long find(RealDump dump, String module, String text) {
        return findAll(dump, module, text).getFirst();
    }

    /**
     * Every place {@code text} lies in the data of {@code module}: a single-file host carries the sccsid string twice
     * (the host's and the runtime's, the same build).
     */
    private static java.util.List<Long> findAll(RealDump dump, String module, String text) {
        java.util.List<Long> found = new java.util.ArrayList<>();
        byte[] needle = text.getBytes(StandardCharsets.ISO_8859_1);
        for (MappedFile f : dump.core.mappedFiles()) {
            if (!f.path().endsWith("/" + module) || f.fileOffset() == 0) {
                continue;
            }
            for (long page = f.start(); page < f.end(); page += 4096) {
                byte[] bytes;
                try {
                    bytes = dump.core.readBytes(page, (int) Math.min(4096 + 128, f.end() - page));
                } catch (MissingMemoryException e) {
                    continue;
                }
                for (int i = 0; i + needle.length <= bytes.length; i++) {
                    if (i < 4096 && java.util.Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                        found.add(page + i);
                    }
                }
            }
        }
        if (found.isEmpty()) {
            throw new AssertionError(text + " is not in the data of " + module);
        }
        return found;
    }

    private static void put(PatchedMemory memory, long address, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i++) {
            memory.putByte(address + i, bytes[i]);
        }
    }

    @Test
    void theBuildIsNamedByTheVersionStringWithItsFileVersionAndCommit() throws TargetException {
        RealDump net10 = RealDump.of("net10-small");
        Target t = open(net10, new PatchedMemory(net10.core));
        assertThat(t.version()).isEqualTo("10.0.9");
        assertThat(t.identity()).hasValueSatisfying(id -> {
            assertThat(id.fileVersion()).isEqualTo("10.0.926.27113");
            assertThat(id.commit()).isEqualTo("901ca941248413c79832d2fdbd709da0c4386353");
        });
        assertThat(t.versionSource()).startsWith("the @(#)Version string of golden10 at 0x");
        assertThat(t.layoutSource()).isEqualTo("the profile of 10.0.9 (builds/linux-x64-10.0.9.json)");
        assertThat(t.describe()).startsWith(".NET 10.0.9 (10.0.926.27113, commit 901ca9412484), workstation GC");
    }

    @Test
    void anUnknownBuildOfAKnownMajorIsWalkedWithTheNearestBuildsLayoutOnlyAfterValidatingAndSaysSo() throws TargetException {
        RealDump net10 = RealDump.of("net10-small");
        PatchedMemory patched = new PatchedMemory(net10.core);
        // 10.0.926.27113 -> 10.0.1226.2711: a 10.0.12 of the same string length, with 10.0.9's table of 129 entries
        put(patched, find(net10, "golden10", "@(#)Version 10.0.926.27113"), "@(#)Version 10.0.1226.2711");
        Target t = open(net10, patched);
        assertThat(t.version()).isEqualTo("10.0.12");
        assertThat(t.layoutSource()).startsWith("the layout of 10.0.11 (nearest known build of net10 with a g_dacTable of 129 entries)")
                .containsPattern("validated on the dump: [0-9]+ checks");
        assertThat(PatchedWalk.of(t).objects()).containsExactlyInAnyOrderElementsOf(net10.walked.keySet());
    }

    @Test
    void anUnknownBuildWhoseNearestLayoutDoesNotValidateIsRefusedNamingTheFailingCheck() {
        RealDump net10 = RealDump.of("net10-small");
        PatchedMemory patched = new PatchedMemory(net10.core);
        put(patched, find(net10, "golden10", "@(#)Version 10.0.926.27113"), "@(#)Version 10.0.1226.2711");
        patched.putInt(net10.heap.freeMethodTable() + 4, 32); // the free MethodTable's BaseSize
        assertThatThrownBy(() -> open(net10, patched)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("the layout of 10.0.11").hasMessageContaining("does not fit this dump").hasMessageContaining("BaseSize 32");
    }

    @Test
    void aMajorVersionClrheapDoesNotKnowIsRefusedNamingIt() {
        RealDump net10 = RealDump.of("net10-small");
        PatchedMemory patched = new PatchedMemory(net10.core);
        put(patched, find(net10, "golden10", "@(#)Version 10.0.926.27113"), "@(#)Version 11.0.026.27113");
        assertThatThrownBy(() -> open(net10, patched)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("runtime 11.0.0 (11.0.026.27113, commit 901ca9412484)").hasMessageContaining("clrheap knows .NET 8, 9 and 10");
    }

    @Test
    void withoutVersionStringOrDotNetRuntimeInfoTheBuildsOfTheSameLayoutAreNamed() throws TargetException {
        RealDump net10 = RealDump.of("net10-small");
        PatchedMemory patched = new PatchedMemory(net10.core);
        findAll(net10, "golden10", "@(#)Version").forEach(at -> put(patched, at, "@(X)"));
        long base = net10.core.mappedFiles().stream().filter(f -> f.fileOffset() == 0 && f.path().endsWith("golden10")).findFirst().orElseThrow().start();
        patched.putLong(base + 0xb57bf8, 0); // spoil DotNetRuntimeInfo's signature (docs/reference/discovery.md section 3)
        Target t = open(net10, patched);
        assertThat(t.identity()).isEmpty();
        assertThat(t.version()).isEqualTo("10.0.9, 10.0.10 or 10.0.11");
        assertThat(t.versionSource()).contains("g_dacTable length").contains("the dump holds no version string");
        assertThat(PatchedWalk.of(t).objects()).containsExactlyInAnyOrderElementsOf(net10.walked.keySet());
    }

    @Test
    void withoutVersionAServerDumpWhoseCandidateBuildsPlaceGcHeapFieldsDifferentlyIsRefused() {
        RealDump net10 = RealDump.of("net10-svr");
        PatchedMemory patched = new PatchedMemory(net10.core);
        String module = net10.target.module().fileName();
        findAll(net10, module, "@(#)Version").forEach(at -> put(patched, at, "@(X)"));
        long base = net10.target.module().base();
        patched.putLong(base + 0xb57bf8, 0); // DotNetRuntimeInfo's signature, at the same link address in both 10.0.9 hosts
        // 10.0.9 and 10.0.10/10.0.11 share g_dacTable, but not server GC's gc_heap (docs/reference/discovery.md section 3)
        assertThatThrownBy(() -> open(net10, patched)).isInstanceOfSatisfying(TargetException.class,
                        e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.UNSUPPORTED_BUILD))
                .hasMessageContaining("the dump holds no version string").hasMessageContaining("server GC's structures differently")
                .hasMessageContaining("gc_heap.");
    }

    @Test
    void dotNetRuntimeInfoNamesTheBuildWhenTheVersionStringIsMissing() throws TargetException {
        RealDump net10 = RealDump.of("net10-small");
        PatchedMemory patched = new PatchedMemory(net10.core);
        findAll(net10, "golden10", "@(#)Version").forEach(at -> put(patched, at, "@(X)"));
        Target t = open(net10, patched);
        assertThat(t.version()).isEqualTo("10.0.9");
        assertThat(t.versionSource()).startsWith("DotNetRuntimeInfo at 0x");
        assertThat(t.identity()).hasValueSatisfying(id -> assertThat(id.fileVersion()).isEqualTo("10.0.926.27113"));
    }
}
