package io.clrheap.cli;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code clrheap demo}: the main job on the built-in default scenario. Until the emulator and generator exist it
 * shows the pointer chase a heap walk follows on the default runtime, structure by structure, from the profile.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Show how a heap walker reaches the GC heap of the default runtime (.NET 8, server GC), with the layout of each structure on the way.")
final class DemoCommand implements Runnable {

    @Mixin
    RuntimeOptions runtime = new RuntimeOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        RuntimeLayout layout = ProfileLoader.builtIn().load(runtime.runtime, runtime.gc);
        PrintWriter out = spec.commandLine().getOut();
        LayoutPrinter printer = new LayoutPrinter(layout, out, false);
        out.println("clrheap demo — the default scenario's runtime: " + layout.describe());
        out.println();
        out.println("A DAC-less walker finds the GC heap in a dump of this runtime like this:");
        var dac = layout.primaryBuild().dacTable();
        out.printf("  1. the runtime module exports g_dacTable (%d entries in %s): 8-byte addresses of runtime globals;%n",
                dac.length(), layout.primaryBuild().version());
        out.printf("  2. entry %d (g_gcDacGlobals) -> GcDacVars; entry %d (ThreadStore::s_pThreadStore) -> the thread list;%n",
                dac.indexOf("g_gcDacGlobals").orElse(-1), dac.indexOf("ThreadStore::s_pThreadStore").orElse(-1));
        out.printf("  3. GcDacVars -> %s -> generation table (stride generation_size) -> start_segment;%n",
                layout.gc() == io.clrheap.layout.GcFlavor.SERVER ? "n_heaps, g_heaps -> each gc_heap (+ gc_heap_field_offsets)" : "the static gc_heap members");
        out.printf("  4. heap_segment chains (next @0x%x): objects in [mem @0x%x, allocated @0x%x), size = BaseSize + count x ComponentSize, aligned to %d;%n",
                layout.offset("heap_segment", "next"), layout.offset("heap_segment", "mem"), layout.offset("heap_segment", "allocated"),
                layout.constant("object.alignment"));
        out.printf("  5. each thread's allocation context [alloc_ptr, alloc_limit + %d) is skipped: it holds no objects yet.%n",
                layout.constant("alloc_context.tail_reserve"));
        out.println();
        for (String name : new String[] {"GcDacVars", "generation", "heap_segment", "gc_alloc_context", "Thread", "MethodTable"}) {
            if (layout.findType(name).isPresent()) {
                printer.structure(layout.type(name));
            }
        }
        printer.sources();
        out.println();
        out.println("More: ./clrheap layout --help   (every structure, constant and g_dacTable index, with sources)");
    }
}
