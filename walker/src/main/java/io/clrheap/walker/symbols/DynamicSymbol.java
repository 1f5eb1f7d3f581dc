package io.clrheap.walker.symbols;

/**
 * A defined dynamic symbol of a loaded module: its name, its address in the process (load bias + {@code st_value})
 * and {@code st_size}.
 */
public record DynamicSymbol(String name, long address, long size) {

    @Override
    public String toString() {
        return String.format("DynamicSymbol[%s at 0x%x, %d bytes]", name, address, size);
    }
}
