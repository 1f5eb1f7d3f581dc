package io.clrheap.walker.runtime;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;

/**
 * An opened dump (or process image): its memory, the runtime module, the identified build and the profile bound
 * to it. Immutable; targets of different runtime versions coexist.
 *
 * @param memory        the process memory
 * @param module        the runtime module
 * @param build         the identified build (its {@code g_dacTable} indexes)
 * @param version       the exact version, e.g. {@code 8.0.30}; when the dump does not say, the known builds it may be
 *                      ({@code 9.0.1, 9.0.5, 9.0.7 or 9.0.11})
 * @param versionSource how the version was identified
 * @param layout        the profile for this version and the dump's GC flavour
 * @param views         typed views bound to {@code layout}
 * @param identity      the build as the dump says it is (version, file version, commit), or empty when it does not say
 * @param layoutSource  how the layout was chosen, e.g. {@code the profile of 9.0.7}, or {@code the layout of 9.0.11 …,
 *                      validated on the dump: 12 checks}
 * @param gcModule      the file name of the standalone GC managing the heap ({@code libclrgc.so}: the module holding the
 *                      GC's variables GcDacVars points at), empty when it is the runtime's own
 */
public record Target(Memory memory, RuntimeModule module, RuntimeBuild build, String version, String versionSource,
                     RuntimeLayout layout, ViewFactory views, java.util.Optional<io.clrheap.layout.BuildIdentity> identity,
                     String layoutSource, String gcModule) {

    /** A target whose GC is the runtime's own ({@code gcModule} empty). */
    public Target(Memory memory, RuntimeModule module, RuntimeBuild build, String version, String versionSource, RuntimeLayout layout,
                  ViewFactory views, java.util.Optional<io.clrheap.layout.BuildIdentity> identity, String layoutSource) {
        this(memory, module, build, version, versionSource, layout, views, identity, layoutSource, "");
    }

    /** This target, its heap managed by the standalone GC {@code fileName} ({@code DOTNET_GCName}). */
    public Target withGcModule(String fileName) {
        return new Target(memory, module, build, version, versionSource, layout, views, identity, layoutSource, fileName);
    }

    public GcFlavor gc() {
        return layout.gc();
    }

    /**
     * The address of runtime global {@code name} (a dacvars.h name): the value of its {@code g_dacTable} entry.
     *
     * @throws IllegalStateException when the build's profile has no index for it (a profile defect)
     */
    public long globalAddress(String name) {
        int index = build.dacTable().indexOf(name).orElseThrow(() -> new IllegalStateException(
                "the " + version + " profile has no g_dacTable index for " + name));
        return memory.readPointer(module.dacTable() + 8L * index);
    }

    /** Shorthand: the pointer stored in runtime global {@code name}. */
    public long globalPointer(String name) {
        return memory.readPointer(globalAddress(name));
    }

    /**
     * e.g. {@code .NET 8.0.30 (8.0.3026.36720, commit a83db3e0eb2d), server GC, Sarif.Multitool}; a Windows runtime says so
     * ({@code .NET 8.0.30 (8.0.3026.36720) on Windows x64, workstation GC, Sarif.Multitool.exe}).
     */
    public String describe() {
        String os = "windows".equals(layout.os()) ? " on Windows " + layout.arch() : "";
        String standalone = gcModule.isEmpty() ? "" : " (standalone " + gcModule + ", " + GcMode.of(memory, layout, globalPointer("g_gcDacGlobals"))
                .name().toLowerCase(java.util.Locale.ROOT) + ")";
        return ".NET " + identity.map(io.clrheap.layout.BuildIdentity::describe).orElse(version) + os + ", " + gc().id() + " GC" + standalone + ", "
                + module.fileName();
    }

    /** e.g. {@code identified by the @(#)Version string of libcoreclr.so at 0x7f…; layout: the profile of 9.0.7}. */
    public String identification() {
        return "identified by " + versionSource + "; layout: " + layoutSource;
    }
}
