package io.clrheap.walker.runtime;

import java.util.Optional;

/**
 * The runtime module's exports, as discovery needs them: the address of an exported name. Answered from an ELF
 * image's dynamic symbols or a PE image's export directory.
 */
@FunctionalInterface
interface ModuleExports {

    /**
     * The address of export {@code name}, or empty when the module does not export it.
     *
     * @throws io.clrheap.memory.MissingMemoryException when the tables the lookup reads are not in the dump
     */
    Optional<Long> address(String name);
}
