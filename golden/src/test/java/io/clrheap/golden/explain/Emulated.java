package io.clrheap.golden.explain;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.util.List;
import java.util.Optional;

/** An emulated process of a built-in scenario and a target over its memory (or over a call session's). */
final class Emulated {

    private Emulated() {
    }

    static EmulatedRuntime build(String scenario, RuntimeVersion version, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(scenario).orElseThrow().on(version, gc));
    }

    static Target open(EmulatedRuntime runtime, Memory memory) throws Exception {
        List<MappedFile> files = runtime.mappings().stream()
                .map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        return new TargetOpener(ProfileLoader.builtIn()).open(memory, files, Optional.empty());
    }
}
