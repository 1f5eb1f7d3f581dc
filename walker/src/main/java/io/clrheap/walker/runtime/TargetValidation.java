package io.clrheap.walker.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.ContractDescriptor;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.layout.view.MethodTable;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that the profile chosen for a dump fits it (docs/reference/discovery.md section 4): the free-object MethodTable has its
 * shape, GcDacVars is major version 2 with the profile's generation stride (or, for a standalone segments GC, one of its
 * own: {@link GcMode}), the thread list is no longer than ThreadCount
 * says (a list that loops is cut by discovery, not refused), and — where the
 * runtime ships a contract descriptor and it is in the dump — its Thread and ThreadStore offsets and globals equal
 * the profile's. A failed check refuses the dump.
 */
final class TargetValidation {

    /** The descriptors of 9.0.1 and 10.0.9 are 3-11 KB. */
    private static final int MAX_DESCRIPTOR_BYTES = 1 << 20;
    /** No process has a million runtime threads; a longer list is a cycle or garbage. */
    private static final int MAX_THREADS = 1 << 20;

    private final Target target;
    private final ModuleExports exports;
    private final RuntimeLayout layout;

    TargetValidation(Target target, ModuleExports exports) {
        this.target = target;
        this.exports = exports;
        this.layout = target.layout();
    }

    /** The facts compared so far (each offset, index or constant the dump confirmed). */
    private int checks;

    /**
     * Checks every fact; returns how many were compared.
     *
     * @throws TargetException (UNSUPPORTED_BUILD) naming the first fact the dump contradicts
     */
    int check() throws TargetException {
        try {
            freeMethodTable();
            gcDacVars();
            threadList();
            contractDescriptor();
            return checks;
        } catch (MissingMemoryException e) {
            throw new TargetException(TargetException.Kind.INCONSISTENT, "the dump lacks a structure discovery needs ("
                    + target.describe() + "): " + e.getMessage(), e);
        }
    }

    private TargetException refuse(String why) {
        return new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, "the " + layout.describe() + " layout ("
                + target.layoutSource() + "; the dump's build " + target.version() + ", identified by " + target.versionSource()
                + ") does not fit this dump: " + why);
    }

    private void freeMethodTable() throws TargetException {
        long address = target.globalPointer("g_pFreeObjectMethodTable");
        MethodTable mt = target.views().view(MethodTable.class, target.memory(), address);
        long flags = Integer.toUnsignedLong(mt.flags());
        if (flags != layout.constant("free_object.mt_flags") || mt.baseSize() != layout.constant("free_object.base_size")) {
            throw refuse(String.format("the free-object MethodTable at 0x%x has flags 0x%x and BaseSize %d (expected 0x%x, %d)",
                    address, flags, mt.baseSize(), layout.constant("free_object.mt_flags"), layout.constant("free_object.base_size")));
        }
        checks += 2; // g_pFreeObjectMethodTable's index, and the MethodTable's flags and BaseSize offsets
    }

    private void gcDacVars() throws TargetException {
        long address = target.globalPointer("g_gcDacGlobals");
        GcDacVars vars = target.views().view(GcDacVars.class, target.memory(), address);
        if (vars.majorVersion() != layout.constant("gc_dac_vars.major_version")) {
            throw refuse(String.format("GcDacVars at 0x%x is version %d.%d (major %d expected)", address,
                    vars.majorVersion(), vars.minorVersion(), layout.constant("gc_dac_vars.major_version")));
        }
        long stride = layout.type("generation").size().orElseThrow();
        // a standalone segments GC (libclrgc.so) has a generation of its own size: the profile's is the runtime's own GC's
        // (regions); the walk then takes the stride and the offsets the GC publishes (GcMode)
        boolean segments = GcMode.of(target.memory(), layout, address) == GcMode.SEGMENTS && stride != vars.generationSize()
                && vars.generationSize() >= 64 && vars.generationSize() <= 4096 && vars.generationSize() % 8 == 0;
        if ((vars.generationSize() != stride && !segments) || vars.totalGenerationCount() != layout.constant("generation.count")) {
            throw refuse(String.format("GcDacVars at 0x%x says generation_size %d and %d generations (profile: %d and %d)",
                    address, vars.generationSize(), vars.totalGenerationCount(), stride, layout.constant("generation.count")));
        }
        checks += 3; // g_gcDacGlobals' index and major version, the generation stride, the generation count
    }

    private void threadList() throws TargetException {
        long storeAddress = target.globalPointer("ThreadStore::s_pThreadStore");
        ThreadStore store = target.views().view(ThreadStore.class, target.memory(), storeAddress);
        long linkOffset = layout.offset("Thread", "LinkNext");
        int expected = store.threadCount();
        if (expected < 0 || expected > MAX_THREADS) {
            throw refuse(String.format("ThreadStore at 0x%x counts %d threads", storeAddress, expected));
        }
        Set<Long> seen = new HashSet<>();
        int walked = 0;
        for (long link = store.firstThreadLink(); link != 0; ) {
            if (!seen.add(link)) {
                // A link that comes again is a corrupt list, not a profile that does not fit: the threads before it
                // were read through the profile's LinkNext. Discovery cuts the list there and reports it.
                return;
            }
            if (walked > expected + 64) {
                throw refuse(String.format("the thread list from ThreadStore 0x%x does not end (at link 0x%x after %d threads; ThreadCount %d)",
                        storeAddress, link, walked, expected));
            }
            NativeThread thread = target.views().view(NativeThread.class, target.memory(), link - linkOffset);
            link = thread.linkNext();
            walked++;
        }
        checks++; // ThreadStore::s_pThreadStore's index, the list's head and Thread.LinkNext: the list ends within ThreadCount
    }

    private void contractDescriptor() throws TargetException {
        Optional<Long> sym;
        try {
            sym = exports.address("DotNetRuntimeContractDescriptor");
        } catch (MissingMemoryException e) {
            return;
        }
        if (sym.isEmpty() || layout.findType("ContractDescriptor").isEmpty()) {
            return;
        }
        JsonNode json;
        ContractDescriptor descriptor;
        try {
            descriptor = target.views().view(ContractDescriptor.class, target.memory(), sym.get());
            if (descriptor.magic() != layout.constant("contract_descriptor.magic")) {
                return;
            }
            long size = descriptor.descriptorSize();
            if (size <= 0 || size > MAX_DESCRIPTOR_BYTES) {
                throw refuse(String.format("the contract descriptor at 0x%x claims %d bytes of JSON", sym.get(), size));
            }
            byte[] text = target.memory().readBytes(descriptor.descriptor(), (int) size);
            json = new ObjectMapper().readTree(new String(text, StandardCharsets.UTF_8));
        } catch (MissingMemoryException e) {
            return; // e.g. createdump --withheap leaves the descriptor's page out (net9-withheap)
        } catch (java.io.IOException e) {
            throw refuse("its contract descriptor is not valid JSON: " + e.getMessage());
        }
        // descriptor type.field -> profile structure.field, for everything discovery reads through a thread
        String[][] same = {
            {"Thread", "*", "Thread"}, {"ThreadStore", "*", "ThreadStore"}, {"RuntimeThreadLocals", "AllocContext", "RuntimeThreadLocals.AllocContext"},
            {"EEAllocContext", "GCAllocationContext", "ee_alloc_context.m_GCAllocContext"},
            {"GCAllocContext", "Pointer", "gc_alloc_context.alloc_ptr"}, {"GCAllocContext", "Limit", "gc_alloc_context.alloc_limit"},
            {"MethodTable", "*", "MethodTable"}, {"EEClass", "MethodTable", "EEClass.MethodTable"},
            {"ThreadLocalData", "NonCollectibleTlsArrayData", "ThreadLocalData.NonCollectibleTlsArrayData"}};
        for (String[] pair : same) {
            for (var f : json.path("types").path(pair[0]).properties()) {
                if (f.getKey().equals("!") || !(pair[1].equals("*") || pair[1].equals(f.getKey()))) {
                    continue;
                }
                String structure = pair[1].equals("*") ? pair[2] : pair[2].substring(0, pair[2].indexOf('.'));
                String field = pair[1].equals("*") ? f.getKey() : pair[2].substring(pair[2].indexOf('.') + 1);
                if (layout.findType(structure).isEmpty() || layout.type(structure).findField(field).isEmpty()) {
                    continue;
                }
                long offset = f.getValue().isArray() ? f.getValue().get(0).asLong() : f.getValue().asLong();
                long profile = layout.offset(structure, field);
                if (offset != profile) {
                    throw refuse(String.format("its contract descriptor puts %s.%s at 0x%x, the profile's %s.%s at 0x%x",
                            pair[0], f.getKey(), offset, structure, field, profile));
                }
                checks++;
            }
        }
        // globals the descriptor reaches through pointer_data must be the variables g_dacTable lists
        String[][] globals = {{"ThreadStore", "ThreadStore::s_pThreadStore"}, {"FreeObjectMethodTable", "g_pFreeObjectMethodTable"}};
        for (String[] g : globals) {
            JsonNode node = json.path("globals").path(g[0]);
            if (!node.isArray() || !node.get(0).isArray()) {
                continue;
            }
            int slot = node.get(0).get(0).asInt();
            if (slot > 0 && slot < descriptor.pointerDataCount()) { // slot 0 is the placeholder (CDMD)
                long fromDescriptor = target.memory().readPointer(descriptor.pointerData() + 8L * slot);
                long fromTable = target.globalAddress(g[1]);
                if (fromDescriptor != fromTable) {
                    throw refuse(String.format("its contract descriptor's %s global is 0x%x, g_dacTable's %s is 0x%x",
                            g[0], fromDescriptor, g[1], fromTable));
                }
                checks++;
            }
        }
    }
}
