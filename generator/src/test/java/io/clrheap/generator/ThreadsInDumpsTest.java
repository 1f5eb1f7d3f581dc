package io.clrheap.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.ThreadStack;
import io.clrheap.generator.bundle.BundleInfo;
import io.clrheap.generator.bundle.BundleWriter;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.generator.minidump.MinidumpWriter;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpThread;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated threads' registers and stacks as each dump carries them, read back by the walker's own readers: an ELF
 * core's NT_PRSTATUS notes hold every register, and the memory range holding rsp ends at the stack's base; a minidump's
 * CONTEXTs hold every integer register, its TEBs' NT_TIB the stack's base and limit, its thread list's stack descriptor
 * the live part [rsp, base) with the stack's bytes; a bundle's manifest lists every thread with its base and registers,
 * and the same process gives the same manifest.
 */
class ThreadsInDumpsTest {

    private static final Scenario SCENARIO = Scenarios.named("four-heaps").orElseThrow();

    @TempDir
    Path dir;

    /** The emulated thread's registers as the walker's reader holds them: matched by name. */
    private static RegisterSet expected(ThreadStack s) {
        RegisterSet.Builder b = new RegisterSet.Builder();
        for (Register r : Register.values()) {
            b.set(r, s.register(CpuRegister.valueOf(r.name())));
        }
        return b.build();
    }

    @Test
    void anElfCoreHoldsEveryThreadsRegistersAndItsStackAsARangeOfItsOwn() throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(SCENARIO);
        Path file = dir.resolve("core");
        ElfCoreWriter.write(process, file);
        List<ThreadStack> stacks = process.groundTruth().stacks();
        try (ElfCore core = ElfCore.open(file)) {
            List<OsThread> threads = core.osThreads();
            assertThat(threads).extracting(OsThread::osId).containsExactlyElementsOf(stacks.stream().map(ThreadStack::osId).toList());
            for (int i = 0; i < stacks.size(); i++) {
                ThreadStack s = stacks.get(i);
                assertThat(threads.get(i).registers()).isEqualTo(expected(s));
                MemoryRange holding = core.ranges().stream().filter(r -> Long.compareUnsigned(s.rsp() - r.start(), r.length()) < 0).findFirst().orElseThrow();
                assertThat(holding.start() + holding.length()).as("the end of the range holding rsp").isEqualTo(s.base());
                assertThat(core.readLong(s.rsp())).isEqualTo(process.memory().readLong(s.rsp()));
            }
        }
    }

    @Test
    void aMinidumpHoldsEveryThreadsContextItsTebsStackBoundsAndItsLiveStack() throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().platform(Platform.WINDOWS).build(SCENARIO);
        Path file = dir.resolve("dump.dmp");
        MinidumpWriter.write(process, file);
        List<ThreadStack> stacks = process.groundTruth().stacks();
        try (Minidump dump = Minidump.open(file)) {
            List<OsThread> threads = dump.osThreads();
            List<MinidumpThread> list = dump.threads();
            assertThat(threads).hasSize(stacks.size());
            for (int i = 0; i < stacks.size(); i++) {
                ThreadStack s = stacks.get(i);
                assertThat(threads.get(i).osId()).isEqualTo(s.osId());
                assertThat(threads.get(i).registers()).isEqualTo(expected(s));
                assertThat(threads.get(i).stackBase()).as("NT_TIB.StackBase").isEqualTo(s.base());
                MinidumpThread t = list.get(i);
                assertThat(dump.readLong(t.teb() + 16)).as("NT_TIB.StackLimit").isEqualTo(s.limit());
                assertThat(t.stackStart()).isEqualTo(s.rsp());
                assertThat(t.stackStart() + t.stackSize()).isEqualTo(s.base());
                for (long slot = s.rsp(); slot < s.base(); slot += 8) {
                    assertThat(dump.readLong(slot)).as("0x%x", slot).isEqualTo(process.memory().readLong(slot));
                }
            }
        }
    }

    @Test
    void aBundlesManifestListsEveryThreadAndTheSameProcessGivesTheSameManifest() throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(SCENARIO);
        Path answers = Files.createDirectories(dir.resolve("answer"));
        Files.writeString(answers.resolve("scenario.txt"), SCENARIO.name() + "\n");
        Path a = dir.resolve("a" + BundleWriter.SUFFIX);
        Path b = dir.resolve("b" + BundleWriter.SUFFIX);
        BundleWriter.write(process, BundleInfo.of(process, "0.0.0-test"), answers, a);
        BundleWriter.write(new RuntimeBuilder().build(SCENARIO), BundleInfo.of(process, "0.0.0-test"), answers, b);
        assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
        List<ThreadStack> stacks = process.groundTruth().stacks();
        try (Bundle bundle = Bundle.open(a)) {
            List<OsThread> threads = bundle.osThreads();
            assertThat(threads).hasSize(stacks.size());
            for (int i = 0; i < stacks.size(); i++) {
                ThreadStack s = stacks.get(i);
                assertThat(threads.get(i)).isEqualTo(new OsThread(s.osId(), expected(s), s.base()));
                assertThat(bundle.readLong(s.rsp())).isEqualTo(process.memory().readLong(s.rsp()));
            }
        }
    }
}
