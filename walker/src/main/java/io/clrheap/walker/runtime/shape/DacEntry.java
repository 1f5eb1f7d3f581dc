package io.clrheap.walker.runtime.shape;

import java.util.Optional;

/**
 * The {@code g_dacTable} entries a DAC-less walk relies on, in {@code dacvars.h} order (the order of the enum): the
 * table lists every {@code DEFINE_DACVAR} of dacvars.h, then gfunc_list.h, then vptr_list.h
 * (dotnet/runtime:src/coreclr/debug/ee/dactable.cpp), so these keep their relative order in every build even when
 * entries between them come and go. {@link #descriptorGlobal} names the cDAC contract descriptor's pointer global
 * (.NET 9 and later) that points at the same variable, where there is one.
 */
public enum DacEntry {
    THREAD_STORE("ThreadStore::s_pThreadStore", "ThreadStore"),
    FINALIZER_THREAD("g_pFinalizerThread", "FinalizerThread"),
    SUSPENSION_THREAD("g_pSuspensionThread", "GCThread"),
    HEAP_TYPE("g_heap_type", null),
    GC_DAC_GLOBALS("g_gcDacGlobals", null),
    APP_DOMAIN("AppDomain::m_pTheAppDomain", "AppDomain"),
    CARD_TABLE("g_card_table", null),
    LOWEST_ADDRESS("g_lowest_address", null),
    HIGHEST_ADDRESS("g_highest_address", null),
    GLOBAL_ALLOC_CONTEXT("g_global_alloc_context", null),
    GC_HEAP("g_pGCHeap", null),
    OBJECT_CLASS("g_pObjectClass", "ObjectMethodTable"),
    STRING_CLASS("g_pStringClass", "StringMethodTable"),
    ARRAY_CLASS("g_pArrayClass", null),
    FREE_OBJECT_METHOD_TABLE("g_pFreeObjectMethodTable", "FreeObjectMethodTable"),
    /** The descriptor's ObjectArrayMethodTable points at element ELEMENT_TYPE_OBJECT of this array variable. */
    PREDEFINED_ARRAY_TYPES("g_pPredefinedArrayTypes", "ObjectArrayMethodTable"),
    SYNC_TABLE("g_pSyncTable", "SyncTableEntries"),
    MODULE_VTABLE("Module__vtAddr", null),
    LOADED_IMAGE_LAYOUT_VTABLE("LoadedImageLayout__vtAddr", null);

    private final String dacName;
    private final String descriptorGlobal;

    DacEntry(String dacName, String descriptorGlobal) {
        this.dacName = dacName;
        this.descriptorGlobal = descriptorGlobal;
    }

    /** The dacvars.h name, as the profiles' {@code dacTable} spell it. */
    public String dacName() {
        return dacName;
    }

    public Optional<String> descriptorGlobal() {
        return Optional.ofNullable(descriptorGlobal);
    }

    /** A vptr_list.h entry: the table holds the vtable's address itself, not the address of a variable. */
    public boolean isVtable() {
        return this == MODULE_VTABLE || this == LOADED_IMAGE_LAYOUT_VTABLE;
    }

    public static Optional<DacEntry> byName(String dacName) {
        for (DacEntry e : values()) {
            if (e.dacName.equals(dacName)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
