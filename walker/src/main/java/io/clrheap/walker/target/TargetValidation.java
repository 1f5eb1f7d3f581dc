package io.clrheap.walker.target;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.ContractDescriptor;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.layout.view.MethodTable;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that the profile chosen for a dump fits it (discovery.md section 4): the free-object MethodTable has its
 * shape, GcDacVars is major version 2 with the profile's generation stride, the thread list ends, and — where the
 * runtime ships a contract descriptor and it is in the dump — its Thread and ThreadStore offsets and globals equal
 * the profile's. A failed check refuses the dump.
 */
final class TargetValidation {

    /** The descriptors of 9.0.1 and 10.0.9 are 3-11 KB. */
    private static final int MAX_DESCRIPTOR_BYTES = 1 << 20;
    /** No process has a million runtime threads; a longer list is a cycle or garbage. */
    private static final int MAX_THREADS = 1 << 20;

    private final Target target;
    private final ElfDynamicSymbols symbols;
    private final RuntimeLayout layout;

    TargetValidation(Target target, ElfDynamicSymbols symbols) {
        this.target = target;
        this.symbols = symbols;
        this.layout = target.layout();
    }

    void check() throws TargetException {
        try {
            freeMethodTable();
            gcDacVars();
            threadList();
            contractDescriptor();
        } catch (MissingMemoryException e) {
            throw refuse("a structure it needs is not in the dump: " + e.getMessage());
        }
    }

    private TargetException refuse(String why) {
        return new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, "the " + layout.describe() + " profile (build "
                + target.version() + ", identified by " + target.versionSource() + ") does not fit this dump: " + why);
    }

    private void freeMethodTable() throws TargetException {
        long address = target.globalPointer("g_pFreeObjectMethodTable");
        MethodTable mt = target.views().view(MethodTable.class, target.memory(), address);
        long flags = Integer.toUnsignedLong(mt.flags());
        if (flags != layout.constant("free_object.mt_flags") || mt.baseSize() != layout.constant("free_object.base_size")) {
            throw refuse(String.format("the free-object MethodTable at 0x%x has flags 0x%x and BaseSize %d (expected 0x%x, %d)",
                    address, flags, mt.baseSize(), layout.constant("free_object.mt_flags"), layout.constant("free_object.base_size")));
        }
    }

    private void gcDacVars() throws TargetException {
        long address = target.globalPointer("g_gcDacGlobals");
        GcDacVars vars = target.views().view(GcDacVars.class, target.memory(), address);
        if (vars.majorVersion() != layout.constant("gc_dac_vars.major_version")) {
            throw refuse(String.format("GcDacVars at 0x%x is version %d.%d (major %d expected)", address,
                    vars.majorVersion(), vars.minorVersion(), layout.constant("gc_dac_vars.major_version")));
        }
        long stride = layout.type("generation").size().orElseThrow();
        if (vars.generationSize() != stride || vars.totalGenerationCount() != layout.constant("generation.count")) {
            throw refuse(String.format("GcDacVars at 0x%x says generation_size %d and %d generations (profile: %d and %d)",
                    address, vars.generationSize(), vars.totalGenerationCount(), stride, layout.constant("generation.count")));
        }
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
            if (!seen.add(link) || walked > expected + 64) {
                throw refuse(String.format("the thread list from ThreadStore 0x%x does not end (at link 0x%x after %d threads; ThreadCount %d)",
                        storeAddress, link, walked, expected));
            }
            NativeThread thread = target.views().view(NativeThread.class, target.memory(), link - linkOffset);
            link = thread.linkNext();
            walked++;
        }
    }

    private void contractDescriptor() throws TargetException {
        Optional<DynamicSymbol> sym;
        try {
            sym = symbols.lookup("DotNetRuntimeContractDescriptor");
        } catch (MissingMemoryException e) {
            return;
        }
        if (sym.isEmpty() || layout.findType("ContractDescriptor").isEmpty()) {
            return;
        }
        JsonNode json;
        ContractDescriptor descriptor;
        try {
            descriptor = target.views().view(ContractDescriptor.class, target.memory(), sym.get().address());
            if (descriptor.magic() != layout.constant("contract_descriptor.magic")) {
                return;
            }
            long size = descriptor.descriptorSize();
            if (size <= 0 || size > MAX_DESCRIPTOR_BYTES) {
                throw refuse(String.format("the contract descriptor at 0x%x claims %d bytes of JSON", sym.get().address(), size));
            }
            byte[] text = target.memory().readBytes(descriptor.descriptor(), (int) size);
            json = new ObjectMapper().readTree(new String(text, StandardCharsets.UTF_8));
        } catch (MissingMemoryException e) {
            return; // e.g. createdump --withheap leaves the descriptor's page out (net9-withheap)
        } catch (java.io.IOException e) {
            throw refuse("its contract descriptor is not valid JSON: " + e.getMessage());
        }
        for (String type : new String[] {"Thread", "ThreadStore"}) {
            var fields = json.path("types").path(type).properties();
            for (var f : fields) {
                if (f.getKey().equals("!") || layout.type(type).findField(f.getKey()).isEmpty()) {
                    continue;
                }
                long offset = f.getValue().isArray() ? f.getValue().get(0).asLong() : f.getValue().asLong();
                long profile = layout.offset(type, f.getKey());
                if (offset != profile) {
                    throw refuse(String.format("its contract descriptor puts %s.%s at 0x%x, the profile at 0x%x",
                            type, f.getKey(), offset, profile));
                }
            }
        }
        JsonNode store = json.path("globals").path("ThreadStore");
        if (store.isArray() && store.get(0).isArray()) {
            int slot = store.get(0).get(0).asInt();
            if (slot > 0 && slot < descriptor.pointerDataCount()) {
                long fromDescriptor = target.memory().readPointer(descriptor.pointerData() + 8L * slot);
                long fromTable = target.globalAddress("ThreadStore::s_pThreadStore");
                if (fromDescriptor != fromTable) {
                    throw refuse(String.format("its contract descriptor's ThreadStore global is 0x%x, g_dacTable's 0x%x",
                            fromDescriptor, fromTable));
                }
            }
        }
    }
}
