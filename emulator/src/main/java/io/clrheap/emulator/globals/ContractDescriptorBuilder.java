package io.clrheap.emulator.globals;

import io.clrheap.layout.GlobalValue;
import io.clrheap.layout.RuntimeLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cDAC contract descriptor a .NET 9/10 runtime exports as {@code DotNetRuntimeContractDescriptor}
 * (docs/reference/clr-layouts.md section 13): magic, flags, the compact JSON (types with field offsets, globals,
 * contracts, in the runtime's own names), and the pointer data that indirect globals index. Holds what a walker
 * reads through a thread (Thread, ThreadStore, the allocation contexts), the object model, and the ThreadStore and
 * FreeObjectMethodTable globals.
 */
final class ContractDescriptorBuilder {

    /** Where the pieces live in the module's .data, and what the pointer data slots hold. */
    record Placed(long descriptor, long json, long pointerData, byte[] jsonBytes, List<String> pointerGlobals) {
    }

    private ContractDescriptorBuilder() {
    }

    /** The descriptor's JSON for this profile; pointer-data slot i + 1 holds the variable of {@code pointerGlobals.get(i)}. */
    static String json(RuntimeLayout layout, List<String> pointerGlobals) {
        StringBuilder s = new StringBuilder("{\"version\":0,\"baseline\":\"empty\",\"types\":{");
        List<String> types = new ArrayList<>();
        types.add(type(layout, "Thread", "Thread", Map.of()));
        types.add(type(layout, "ThreadStore", "ThreadStore", Map.of()));
        types.add("\"RuntimeThreadLocals\":{\"AllocContext\":" + layout.offset("RuntimeThreadLocals", "AllocContext") + "}");
        if (layout.findType("ee_alloc_context").isPresent()) {
            types.add("\"EEAllocContext\":{\"GCAllocationContext\":" + layout.offset("ee_alloc_context", "m_GCAllocContext") + "}");
        }
        types.add("\"GCAllocContext\":{\"Pointer\":" + layout.offset("gc_alloc_context", "alloc_ptr")
                + ",\"Limit\":" + layout.offset("gc_alloc_context", "alloc_limit") + "}");
        types.add(type(layout, "Object", "Object", Map.of()));
        types.add(type(layout, "String", "String", Map.of()));
        types.add(type(layout, "Array", "Array", Map.of()));
        types.add(type(layout, "MethodTable", "MethodTable", Map.of()));
        types.add(type(layout, "EEClass", "EEClass", Map.of()));
        s.append(String.join(",", types)).append("},\"globals\":{");
        List<String> globals = new ArrayList<>();
        for (GlobalValue g : layout.globals().values()) {
            globals.add("\"" + g.name() + "\":" + (g.value() instanceof Long l
                    ? "[\"0x" + Long.toHexString(l) + "\",\"" + g.type() + "\"]"
                    : "[\"" + g.value() + "\",\"string\"]"));
        }
        for (int i = 0; i < pointerGlobals.size(); i++) {
            globals.add("\"" + pointerGlobals.get(i) + "\":[[" + (i + 1) + "],\"pointer\"]");
        }
        s.append(String.join(",", globals)).append("},\"contracts\":{");
        List<String> contracts = new ArrayList<>();
        layout.contracts().forEach((name, version) -> contracts.add("\"" + name + "\":" + version));
        s.append(String.join(",", contracts)).append("}}");
        return s.toString();
    }

    /** {@code "Name":{"!":size,"field":offset,…}} with the profile's fields (and size when it has one). */
    private static String type(RuntimeLayout layout, String profileType, String descriptorType, Map<String, String> renames) {
        var t = layout.type(profileType);
        List<String> parts = new ArrayList<>();
        t.size().ifPresent(size -> parts.add("\"!\":" + size));
        for (var f : t.fields()) {
            if (f.name().startsWith("m_") && !profileType.equals("String") && !profileType.equals("Array") && !profileType.equals("Object")) {
                continue; // C++ member names without a descriptor name (e.g. .NET 8's m_alloc_context) are not published
            }
            parts.add("\"" + renames.getOrDefault(f.name(), f.name()) + "\":" + f.offset());
        }
        return "\"" + descriptorType + "\":{" + String.join(",", parts) + "}";
    }

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
