package io.clrheap.walker.target;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.DotNetRuntimeInfo;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import io.clrheap.walker.symbols.ModuleHeadersMissingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Opens a process image as a {@link Target}: finds the runtime module (the mapped file whose dynamic symbols
 * export {@code g_dacTable}), identifies the exact build from the dump itself ({@code DotNetRuntimeInfo}, else
 * the length of {@code g_dacTable}), loads the matching profile and validates it on the dump. An unknown build is
 * refused, never walked with a guessed profile. Facts: discovery.md sections 2-4.
 */
public final class TargetOpener {

    /** g_dacTable has 129-158 entries in 8-10; a symbol size beyond this is not a DAC table. */
    private static final int MAX_DAC_TABLE_LENGTH = 4096;
    private static final String DAC_TABLE = "g_dacTable";
    private static final String RUNTIME_INFO = "DotNetRuntimeInfo";
    private static final byte[] RUNTIME_INFO_SIGNATURE = "DotNetRuntimeInfo\0".getBytes(StandardCharsets.US_ASCII);

    private final ProfileLoader profiles;

    public TargetOpener(ProfileLoader profiles) {
        this.profiles = profiles;
    }

    /**
     * @param memory     the process memory
     * @param files      the file mappings (NT_FILE of an ELF core)
     * @param moduleFile the runtime binary, for dumps that lack its ELF headers
     */
    public Target open(Memory memory, List<MappedFile> files, Optional<Path> moduleFile) throws TargetException {
        Located located = locateRuntimeModule(memory, files, moduleFile);
        RuntimeModule module = located.module();
        Identified id = identify(memory, module, located.symbols());
        GcFlavor gc = heapType(memory, module, id.build());
        RuntimeLayout layout = profiles.load(id.version(), gc);
        Target target = new Target(memory, module, id.build(), id.versionText(), id.source(), layout, new ViewFactory(layout));
        new TargetValidation(target, located.symbols()).check();
        return target;
    }

    private record Located(RuntimeModule module, ElfDynamicSymbols symbols) {
    }

    private Located locateRuntimeModule(Memory memory, List<MappedFile> files, Optional<Path> moduleFile) throws TargetException {
        Map<String, Long> bases = new LinkedHashMap<>();
        for (MappedFile f : files) {
            if (f.fileOffset() == 0) {
                bases.putIfAbsent(f.path(), f.start());
            }
        }
        List<String> headersMissing = new ArrayList<>();
        for (var e : bases.entrySet()) {
            ElfDynamicSymbols symbols;
            try {
                symbols = ElfDynamicSymbols.inMemory(memory, e.getValue());
            } catch (ModuleHeadersMissingException | MissingMemoryException ex) {
                headersMissing.add(e.getKey());
                continue;
            } catch (RuntimeException ex) {
                continue; // not an ELF image we can read (e.g. a data file mapped at offset 0)
            }
            Optional<DynamicSymbol> table = lookup(symbols, DAC_TABLE);
            if (table.isPresent()) {
                return new Located(module(e.getKey(), e.getValue(), table.get(), "dump memory"), symbols);
            }
        }
        if (moduleFile.isPresent()) {
            return fromModuleFile(memory, bases, moduleFile.get());
        }
        if (!headersMissing.isEmpty()) {
            throw new TargetException(TargetException.Kind.MODULE_HEADERS_MISSING,
                    "no module in the dump exports g_dacTable, and the ELF headers of " + headersMissing.size()
                            + " mapped modules are not in the dump (" + names(headersMissing, bases)
                            + "): pass the runtime binary (libcoreclr.so, or the single-file host) with --module FILE");
        }
        throw new TargetException(TargetException.Kind.NOT_A_RUNTIME,
                "no mapped module exports g_dacTable: not a .NET (CoreCLR) process dump (" + bases.size() + " mapped files checked)");
    }

    private static Optional<DynamicSymbol> lookup(ElfDynamicSymbols symbols, String name) {
        try {
            return symbols.lookup(name);
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
    }

    private static String names(List<String> paths, Map<String, Long> bases) {
        StringBuilder s = new StringBuilder();
        int shown = 0;
        for (String p : paths) {
            if (shown == 6) {
                s.append(", … ").append(paths.size() - shown).append(" more");
                break;
            }
            if (shown > 0) {
                s.append(", ");
            }
            s.append(p.substring(p.lastIndexOf('/') + 1)).append(String.format(" at 0x%x", bases.get(p)));
            shown++;
        }
        return s.toString();
    }

    private RuntimeModule module(String path, long base, DynamicSymbol table, String from) throws TargetException {
        long length = table.size() / 8;
        if (table.size() % 8 != 0 || length < 1 || length > MAX_DAC_TABLE_LENGTH) {
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "g_dacTable in %s has st_size %d: not a table of 8-byte addresses (at most %d entries expected)",
                    path, table.size(), MAX_DAC_TABLE_LENGTH));
        }
        return new RuntimeModule(path, base, table.address(), (int) length, from);
    }

    /** Reads the symbols from the binary the user supplied, mapped at the base of the file of the same name. */
    private Located fromModuleFile(Memory memory, Map<String, Long> bases, Path file) throws TargetException {
        String name = file.getFileName().toString();
        Long base = null;
        String mappedPath = null;
        for (var e : bases.entrySet()) {
            if (e.getKey().endsWith("/" + name) || e.getKey().equals(name)) {
                base = e.getValue();
                mappedPath = e.getKey();
                break;
            }
        }
        if (base == null) {
            throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, "--module " + file + ": no file named "
                    + name + " is mapped in the dump");
        }
        ElfDynamicSymbols symbols;
        try {
            symbols = ElfDynamicSymbols.fromFile(file, base);
        } catch (IOException e) {
            throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, "--module " + file + ": " + e.getMessage(), e);
        }
        DynamicSymbol table = lookup(symbols, DAC_TABLE).orElseThrow(() -> new TargetException(
                TargetException.Kind.NOT_A_RUNTIME, "--module " + file + " does not export g_dacTable: not a CoreCLR runtime binary"));
        RuntimeModule module = module(mappedPath, base, table, file.toString());
        checkModuleFileMatches(memory, symbols, module, file);
        return new Located(module, symbols);
    }

    /** The binary must be the one the dump ran: its .data (always in a dump) must agree with the file's symbols. */
    private static void checkModuleFileMatches(Memory memory, ElfDynamicSymbols symbols, RuntimeModule module, Path file) throws TargetException {
        Optional<DynamicSymbol> info = lookup(symbols, RUNTIME_INFO);
        try {
            if (info.isPresent()) {
                byte[] sig = memory.readBytes(info.get().address(), RUNTIME_INFO_SIGNATURE.length);
                if (!java.util.Arrays.equals(sig, RUNTIME_INFO_SIGNATURE)) {
                    throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, String.format(
                            "--module %s does not match the dump: DotNetRuntimeInfo at 0x%x does not hold its signature there", file, info.get().address()));
                }
            } else {
                // libcoreclr.so does not export DotNetRuntimeInfo: the table's entries must point at globals of the module
                long first = memory.readPointer(module.dacTable());
                if (Long.compareUnsigned(first, module.base()) < 0) {
                    throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, String.format(
                            "--module %s does not match the dump: g_dacTable at 0x%x holds 0x%x, below the module base 0x%x",
                            file, module.dacTable(), first, module.base()));
                }
            }
        } catch (MissingMemoryException e) {
            throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, "--module " + file
                    + " does not match the dump: " + e.getMessage(), e);
        }
    }

    private record Identified(RuntimeVersion version, String versionText, RuntimeBuild build, String source) {
    }

    /** The exact build: DotNetRuntimeInfo's RuntimeVersion when exported, else the g_dacTable length (discovery.md section 3). */
    private Identified identify(Memory memory, RuntimeModule module, ElfDynamicSymbols symbols) throws TargetException {
        Optional<String> fromInfo = runtimeInfoVersion(memory, symbols);
        List<String> known = new ArrayList<>();
        List<Identified> matches = new ArrayList<>();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            RuntimeLayout layout = profiles.load(v, GcFlavor.WORKSTATION);
            for (RuntimeBuild b : layout.builds()) {
                known.add(b.version() + " (" + b.dacTable().length() + " entries)");
                if (b.dacTable().length() == module.dacTableLength()
                        && (fromInfo.isEmpty() || fromInfo.get().equals(b.version()))) {
                    matches.add(new Identified(v, b.version(), b, fromInfo.isPresent() ? "DotNetRuntimeInfo" : "g_dacTable length"));
                }
            }
        }
        // without DotNetRuntimeInfo, builds that share the table length are told apart only if their layouts differ:
        // 10.0.9 and 10.0.11 have the same table and profile, so either serves (the newest known is named)
        boolean sameLayout = !matches.isEmpty() && matches.stream().allMatch(m -> m.version() == matches.get(0).version()
                && m.build().dacTable().equals(matches.get(0).build().dacTable()));
        if (matches.isEmpty() || !sameLayout) {
            String found = fromInfo.map(s -> "runtime " + s).orElse("a runtime without DotNetRuntimeInfo");
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "unsupported build: %s with a g_dacTable of %d entries in %s; clrheap has profiles for %s",
                    found, module.dacTableLength(), module.fileName(), String.join(", ", known)));
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        String versions = String.join(" or ", matches.stream().map(Identified::versionText).toList());
        Identified first = matches.get(0);
        return new Identified(first.version(), versions, first.build(), "g_dacTable length (builds of the same layout)");
    }

    /** {@code major.minor.patch} from DotNetRuntimeInfo.RuntimeVersion (file version build number / 100 = patch). */
    private Optional<String> runtimeInfoVersion(Memory memory, ElfDynamicSymbols symbols) {
        Optional<DynamicSymbol> sym = lookup(symbols, RUNTIME_INFO);
        if (sym.isEmpty()) {
            return Optional.empty();
        }
        try {
            long a = sym.get().address();
            if (!java.util.Arrays.equals(memory.readBytes(a, RUNTIME_INFO_SIGNATURE.length), RUNTIME_INFO_SIGNATURE)) {
                return Optional.empty();
            }
            // layout-independent of the version's profile: DotNetRuntimeInfo is the same in every build (baseline)
            DotNetRuntimeInfo info = new ViewFactory(profiles.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION))
                    .view(DotNetRuntimeInfo.class, memory, a);
            if (info.version() < 2) {
                return Optional.empty();
            }
            return Optional.of(info.runtimeVersion(0) + "." + info.runtimeVersion(1) + "." + info.runtimeVersion(2) / 100);
        } catch (MissingMemoryException e) {
            return Optional.empty();
        }
    }

    private static GcFlavor heapType(Memory memory, RuntimeModule module, RuntimeBuild build) throws TargetException {
        int index = build.dacTable().indexOf("g_heap_type").orElseThrow();
        try {
            long address = memory.readPointer(module.dacTable() + 8L * index);
            int type = memory.readInt(address);
            return switch (type) {
                case 1 -> GcFlavor.WORKSTATION;
                case 2 -> GcFlavor.SERVER;
                default -> throw new TargetException(TargetException.Kind.INCONSISTENT, String.format(
                        "g_heap_type at 0x%x is %d: the GC was not initialised (1 = workstation, 2 = server expected)", address, type));
            };
        } catch (MissingMemoryException e) {
            throw new TargetException(TargetException.Kind.INCONSISTENT, "cannot read g_heap_type: " + e.getMessage(), e);
        }
    }
}
