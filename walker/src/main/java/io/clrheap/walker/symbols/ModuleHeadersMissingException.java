package io.clrheap.walker.symbols;

/**
 * The ELF header, program headers, dynamic section or symbol tables of a module are not readable in the dump
 * (trimmed dumps keep only some mappings: a module's headers may be a {@code PT_LOAD} with {@code p_filesz = 0}).
 * The symbols can then only come from the module's file on disk ({@link ElfDynamicSymbols#fromFile}).
 */
public final class ModuleHeadersMissingException extends Exception {

    private final long base;
    private final String missing;

    /**
     * @param base    the start of the module's file-offset-0 mapping
     * @param missing what is not readable and where, e.g. {@code p_filesz = 0} or
     *                {@code the dynamic section at 0x7f00001f0000: mapped but not captured in the dump}
     */
    public ModuleHeadersMissingException(long base, String missing) {
        super(String.format("the ELF headers of the module mapped at 0x%x are not in the dump (%s): "
                + "pass the runtime binary with --module FILE", base, missing));
        this.base = base;
        this.missing = missing;
    }

    /** The start of the module's file-offset-0 mapping. */
    public long base() {
        return base;
    }

    /** What is not readable, and where. */
    public String missing() {
        return missing;
    }
}
