package io.clrheap.walker.runtime.shape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.ContractDescriptor;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pointer globals of the cDAC contract descriptor ({@code DotNetRuntimeContractDescriptor}, .NET 9 and later):
 * global name → the address its {@code pointer_data} slot holds (the address of the runtime variable).
 */
public final class ContractDescriptorGlobals {

    /** The descriptors of 9.0.1 and 10.0.9 are 3-11 KB. */
    private static final int MAX_DESCRIPTOR_BYTES = 1 << 20;

    private ContractDescriptorGlobals() {
    }

    /**
     * Reads them; empty when the module exports no descriptor, or it (or its JSON) is not in the dump, or it is not one.
     *
     * @param address the descriptor's address ({@code DotNetRuntimeContractDescriptor})
     * @param layout  a profile that has the ContractDescriptor structure (9 or 10: its layout is the same in both)
     */
    public static Optional<Map<String, Long>> read(Memory memory, long address, RuntimeLayout layout) {
        try {
            ContractDescriptor d = new ViewFactory(layout).view(ContractDescriptor.class, memory, address);
            if (d.magic() != layout.constant("contract_descriptor.magic")) {
                return Optional.empty();
            }
            long size = d.descriptorSize();
            if (size <= 0 || size > MAX_DESCRIPTOR_BYTES) {
                return Optional.empty();
            }
            JsonNode json = new ObjectMapper().readTree(new String(memory.readBytes(d.descriptor(), (int) size), StandardCharsets.UTF_8));
            Map<String, Long> globals = new TreeMap<>();
            long slots = d.pointerDataCount();
            for (var e : json.path("globals").properties()) {
                JsonNode v = e.getValue();
                if (v.isArray() && v.size() > 0 && v.get(0).isArray() && v.get(0).size() == 1 && v.get(0).get(0).canConvertToInt()) {
                    int slot = v.get(0).get(0).asInt();
                    if (slot > 0 && slot < slots) { // slot 0 is the placeholder
                        globals.put(e.getKey(), memory.readPointer(d.pointerData() + 8L * slot));
                    }
                }
            }
            return Optional.of(globals);
        } catch (MissingMemoryException | java.io.IOException | io.clrheap.layout.LayoutException e) {
            return Optional.empty();
        }
    }
}
