package io.clrheap.walker.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TargetOs;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.ContractDescriptor;
import io.clrheap.layout.view.DotNetRuntimeInfo;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpModule;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import io.clrheap.walker.symbols.ModuleFormatException;
import io.clrheap.walker.symbols.ModuleHeadersMissingException;
import io.clrheap.walker.symbols.PeExports;
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
 * export {@code g_dacTable}; on Windows the module whose PE exports do, a coreclr.dll or a single-file host),
 * identifies the exact build from the dump itself ({@code DotNetRuntimeInfo}, else the length of {@code g_dacTable}; on
 * Windows, where exports have no size, else the version resource, else the contract descriptor: see
 * {@link #openWindows}), loads the matching profile and validates it on the dump.
 * An unknown build is refused, never walked with a guessed profile. Facts: docs/reference/discovery.md sections 2-4.
 *
 * <p>Long because the Linux path (file mappings, ELF dynamic symbols) and the Windows path (minidump module list, PE
 * exports, contract descriptor) end in the same identification and validation steps, which they share here.
 */
public final class TargetOpener {

    /** g_dacTable has 129-158 entries in 8-10; a symbol size beyond this is not a DAC table. */
    private static final int MAX_DAC_TABLE_LENGTH = 4096;
    private static final String DAC_TABLE = "g_dacTable";
    private static final String RUNTIME_INFO = "DotNetRuntimeInfo";
    private static final String CONTRACT_DESCRIPTOR = "DotNetRuntimeContractDescriptor";
    /** The runtime of a framework-dependent Windows app (ClrMD matches the name case-insensitively: docs/reference/dump-formats.md section 4.2). */
    private static final String CORECLR_DLL = "coreclr.dll";
    /** The descriptors of 9.0.1 and 10.0.9 are 3-11 KB. */
    private static final int MAX_DESCRIPTOR_BYTES = 1 << 20;
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
        try {
            Located located = locateRuntimeModule(memory, files, moduleFile);
            RuntimeModule module = located.module();
            ModuleExports exports = name -> located.symbols().lookup(name).map(DynamicSymbol::address);
            Optional<IdentityReader.Found> identity = IdentityReader.read(memory, module, Optional.of(located.symbols()), exports, profiles);
            BuildChooser chooser = new BuildChooser(profiles, TargetOs.LINUX);
            BuildChooser.Choice choice = chooser.choose(identity, java.util.OptionalInt.of(module.dacTableLength()), Optional.empty(), module.fileName());
            List<io.clrheap.memory.MemoryRange> ranges = files.stream().filter(f -> f.path().equals(module.path()) && f.end() > f.start())
                    .map(f -> new io.clrheap.memory.MemoryRange(f.start(), f.end() - f.start())).toList();
            Target target = finish(memory, module, chooser, choice, exports, ranges);
            return standaloneGc(target, files).map(target::withGcModule).orElse(target);
        } catch (java.io.UncheckedIOException e) {
            // a symbol table that is there but corrupt (ElfDynamicSymbols wraps its ModuleFormatException)
            if (e.getCause() instanceof io.clrheap.walker.symbols.ModuleFormatException bad) {
                throw new TargetException(TargetException.Kind.INCONSISTENT, "the runtime module's symbol tables are corrupt: " + bad.getMessage(), bad);
            }
            throw e;
        }
    }

    /**
     * The file of a standalone GC ({@code DOTNET_GCName=libclrgc.so}): the mapped file, other than the runtime module,
     * holding the GC variable GcDacVars points at first ({@code g_heaps} under server GC, the generation table under
     * workstation GC; gcinterface.dacvars.def) — the GC fills GcDacVars with its own variables' addresses.
     */
    /** How far past a module's last file mapping its .bss may reach (libclrgc.so's is under 1 MiB). */
    private static final long MAX_BSS = 64L << 20;

    private static Optional<String> standaloneGc(Target target, List<MappedFile> files) {
        try {
            io.clrheap.layout.view.GcDacVars vars = target.views().view(io.clrheap.layout.view.GcDacVars.class, target.memory(),
                    target.globalPointer("g_gcDacGlobals"));
            long variable = target.gc() == GcFlavor.SERVER ? vars.gHeaps() : vars.generationTable();
            // the variable is in the module's .bss, past its last file-backed page: the file mapped nearest below it
            MappedFile nearest = null;
            for (MappedFile f : files) {
                if (Long.compareUnsigned(f.start(), variable) <= 0 && (nearest == null || Long.compareUnsigned(f.start(), nearest.start()) > 0)) {
                    nearest = f;
                }
            }
            if (nearest != null && !nearest.path().equals(target.module().path()) && variable - nearest.end() < MAX_BSS) {
                return Optional.of(nearest.path().substring(Math.max(nearest.path().lastIndexOf('/'), nearest.path().lastIndexOf('\\')) + 1));
            }
        } catch (MissingMemoryException | IllegalStateException e) {
            // GcDacVars unreadable: discovery reports it; the GC is taken to be the runtime's
        }
        return Optional.empty();
    }

    /**
     * Finds the runtime module and its {@code g_dacTable} without identifying the build or loading a profile: what
     * {@code derive-profile} starts from on a build clrheap does not know yet. The symbols are read as {@link #open}
     * reads them (from the dump, else from {@code moduleFile}).
     *
     * @throws TargetException no module exports g_dacTable, its headers are missing, or its symbol tables are corrupt
     */
    public LocatedRuntime locate(Memory memory, List<MappedFile> files, Optional<Path> moduleFile) throws TargetException {
        try {
            Located located = locateRuntimeModule(memory, files, moduleFile);
            RuntimeModule module = located.module();
            List<MappedFile> mappings = files.stream().filter(f -> f.path().equals(module.path())).toList();
            ModuleExports exports = name -> located.symbols().lookup(name).map(DynamicSymbol::address);
            Optional<IdentityReader.Found> identity = IdentityReader.read(memory, module, Optional.of(located.symbols()), exports, profiles);
            return new LocatedRuntime(module, mappings, name -> {
                try {
                    return located.symbols().lookup(name).map(DynamicSymbol::address);
                } catch (MissingMemoryException | java.io.UncheckedIOException e) {
                    return Optional.empty();
                }
            }, identity, TargetOs.LINUX);
        } catch (java.io.UncheckedIOException e) {
            if (e.getCause() instanceof io.clrheap.walker.symbols.ModuleFormatException bad) {
                throw new TargetException(TargetException.Kind.INCONSISTENT, "the runtime module's symbol tables are corrupt: " + bad.getMessage(), bad);
            }
            throw e;
        }
    }

    /** g_dacTable of the Windows builds has 138 (10.0.9) to 169 (8.0.30) entries; a table is never longer than this. */
    private static final int MAX_PE_TABLE_SLOTS = 4096;

    /**
     * Finds the PE runtime module of a Windows process image and its {@code g_dacTable}, without identifying the build:
     * what {@code derive-profile} starts from. A PE export has no size, so the table's length is measured: its entries
     * are the addresses of runtime variables, never 0, and the word after the last one is 0 in every Windows build seen
     * (169 entries in 8.0.30, 138 in 10.0.9, docs/reference/windows.md); the count of words before the first 0.
     *
     * @throws TargetException no module exports g_dacTable, its headers are missing, or the table has no end in the module
     */
    public LocatedRuntime locateWindows(Memory memory, List<MinidumpModule> modules) throws TargetException {
        LocatedPe located = locatePeModule(memory, modules);
        MinidumpModule m = located.module();
        ModuleExports exports = name -> located.exports().getOrDefault(name, Optional.empty());
        Optional<IdentityReader.Found> identity = peIdentity(memory, located, exports);
        int length = 0;
        try {
            while (length < MAX_PE_TABLE_SLOTS && located.dacTable() + 8L * (length + 1) <= m.base() + m.size()
                    && memory.readLong(located.dacTable() + 8L * length) != 0) {
                length++;
            }
        } catch (MissingMemoryException e) {
            throw new TargetException(TargetException.Kind.INCONSISTENT, String.format("g_dacTable of %s at 0x%x: %s", m.fileName(), located.dacTable(),
                    e.getMessage()), e);
        }
        if (length == 0 || length == MAX_PE_TABLE_SLOTS) {
            throw new TargetException(TargetException.Kind.INCONSISTENT, String.format("g_dacTable of %s at 0x%x has no end: %s", m.fileName(),
                    located.dacTable(), length == 0 ? "its first entry is 0" : "no 0 word in its first " + MAX_PE_TABLE_SLOTS + " slots"));
        }
        RuntimeModule module = new RuntimeModule(m.name(), m.base(), located.dacTable(), length, "dump memory (PE exports; length: the words before the first 0)");
        return new LocatedRuntime(module, List.of(new MappedFile(m.base(), m.base() + m.size(), 0, m.name())),
                name -> exports.address(name), identity, TargetOs.WINDOWS);
    }

    /**
     * Opens a Windows minidump: {@link #openWindows} over its memory and module list.
     */
    public Target open(Minidump dump) throws TargetException {
        return openWindows(dump, dump.modules());
    }

    /**
     * Opens a Windows process image: the runtime module is the module whose PE export directory exports
     * {@code g_dacTable} ({@code coreclr.dll}, or a single-file host: .NET 7 on, both export it), read from
     * {@code memory} at its base; a {@code coreclr.dll} without that export is refused, named as a runtime before .NET 7
     * where it holds the older resource {@code COREXTERNALDATAACCESSRESOURCE} (docs/reference/windows.md section 6).
     *
     * <p>PE exports carry no size, so the length of {@code g_dacTable} — which on Linux tells builds apart when
     * nothing else does — is not in the dump. The build is identified by version instead, and the table's length is
     * then the one that build's profile records:
     * <ol>
     *   <li>{@code DotNetRuntimeInfo}, where the module exports it (8, 10): its RuntimeVersion names the exact
     *       build ({@code major.minor.build/100}), whose profile must exist;</li>
     *   <li>else the file version of the module's version resource, which the minidump's module list carries
     *       (VS_FIXEDFILEINFO: {@code 9.0.725.31616} is 9.0.7), or else the image's own RT_VERSION resource holds
     *       (how a framework-dependent app's coreclr.dll, which exports no DotNetRuntimeInfo, is named);</li>
     *   <li>else the cDAC contract descriptor {@code DotNetRuntimeContractDescriptor} (9, 10): the contracts it
     *       declares (names and versions) are those of exactly one runtime version's profile;</li>
     *   <li>else the build cannot be identified, and the dump is refused.</li>
     * </ol>
     * When several known builds of the version remain (as 10.0.9 and 10.0.11 without DotNetRuntimeInfo), they must
     * share one {@code g_dacTable} — the same length and indexes — or the dump is refused, as on Linux. The build so
     * chosen is then validated on the dump like any other (free-object MethodTable, GcDacVars, the thread list, the
     * descriptor's globals against the table's entries), so a wrong table would be refused, not walked.
     */
    public Target openWindows(Memory memory, List<MinidumpModule> modules) throws TargetException {
        LocatedPe located = locatePeModule(memory, modules);
        ModuleExports exports = name -> located.exports().getOrDefault(name, Optional.empty());
        Optional<IdentityReader.Found> identity = peIdentity(memory, located, exports);
        Optional<Map<String, Long>> contracts = identity.isPresent() ? Optional.empty() : descriptorContracts(memory, exports);
        BuildChooser chooser = new BuildChooser(profiles, TargetOs.WINDOWS);
        BuildChooser.Choice choice = chooser.choose(identity, java.util.OptionalInt.empty(), contracts, located.module().fileName());
        RuntimeModule module = new RuntimeModule(located.module().name(), located.module().base(), located.dacTable(),
                choice.build().dacTable().length(), "dump memory (PE exports)");
        return finish(memory, module, chooser, choice, exports, List.of(new io.clrheap.memory.MemoryRange(located.module().base(), located.module().size())));
    }

    /**
     * A PE runtime's build: DotNetRuntimeInfo where it exports one (a single-file host; a coreclr.dll does not), else
     * the version resource the module list gives, else the one in the image itself.
     */
    private Optional<IdentityReader.Found> peIdentity(Memory memory, LocatedPe located, ModuleExports exports) {
        return IdentityReader.runtimeInfo(memory, exports, profiles).or(() -> IdentityReader.versionResource(located.module()))
                .or(() -> IdentityReader.imageVersionResource(memory, located.module()));
    }

    private Target finish(Memory memory, RuntimeModule module, BuildChooser chooser, BuildChooser.Choice choice, ModuleExports exports,
                          List<io.clrheap.memory.MemoryRange> moduleRanges) throws TargetException {
        GcFlavor gc = heapType(memory, module, choice.build());
        chooser.requireOneLayout(choice, gc, module.fileName());
        RuntimeLayout layout = chooser.layout(choice, gc);
        String layoutSource = choice.layoutSource();
        Target target = new Target(memory, module, choice.build(), choice.versionText(), choice.versionSource(), layout,
                new ViewFactory(layout), choice.identity(), layoutSource);
        int checks = new TargetValidation(target, exports).check();
        if (choice.nearest()) {
            // another build's layout: every g_dacTable index the walk reads must hold its entry's shape on this dump
            checks += shapesHold(memory, module, target, exports, moduleRanges);
            target = new Target(memory, module, choice.build(), choice.versionText(), choice.versionSource(), layout,
                    target.views(), choice.identity(), layoutSource + ", validated on the dump: " + checks + " checks");
        }
        return target;
    }

    /**
     * Checks each g_dacTable index of the target's layout by the shape of what it points at (docs/reference/discovery.md
     * section 4); returns how many held.
     *
     * @throws TargetException (UNSUPPORTED_BUILD) naming the first entry that does not hold
     */
    private int shapesHold(Memory memory, RuntimeModule module, Target target, ModuleExports exports,
                           List<io.clrheap.memory.MemoryRange> moduleRanges) throws TargetException {
        Map<String, Long> globals = Map.of();
        try {
            Optional<Long> descriptor = exports.address(CONTRACT_DESCRIPTOR);
            if (descriptor.isPresent() && target.layout().findType("ContractDescriptor").isPresent()) {
                globals = io.clrheap.walker.runtime.shape.ContractDescriptorGlobals.read(memory, descriptor.get(), target.layout()).orElse(Map.of());
            }
        } catch (MissingMemoryException e) {
            // no descriptor to compare with: the shapes alone decide
        }
        var input = new io.clrheap.walker.runtime.shape.ShapeInput(memory, module.fileName(), module.base(), moduleRanges,
                module.dacTable(), module.dacTableLength(), profiles.load(target.layout().version(), TargetOs.parse(target.layout().os()), GcFlavor.WORKSTATION,
                target.build().version()), globals);
        Map<String, Integer> indexes = new LinkedHashMap<>();
        target.build().dacTable().entries().values().forEach(e -> indexes.put(e.name(), e.index()));
        var validation = new io.clrheap.walker.runtime.shape.DacTableShapes(input, Optional.of(target.build())).validate(indexes);
        if (!validation.holds()) {
            var first = validation.failures().isEmpty() ? validation.checks().stream().filter(c -> !c.holds()).findFirst().orElseThrow()
                    : validation.failures().getFirst();
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "the %s layout (%s; the dump's build %s, identified by %s) does not fit this dump: g_dacTable entry %s; "
                            + "`clrheap derive-profile` derives this build's own layout from a dump or process of it",
                    target.layout().describe(), target.layoutSource(), target.version(), target.versionSource(), first));
        }
        return validation.checks().size();
    }

    private record Located(RuntimeModule module, ElfDynamicSymbols symbols) {
    }

    /** The PE runtime module, the address of its g_dacTable, and the addresses of the exports discovery reads. */
    private record LocatedPe(MinidumpModule module, long dacTable, Map<String, Optional<Long>> exports) {
    }

    private static final List<String> PE_EXPORTS_READ = List.of(DAC_TABLE, RUNTIME_INFO, CONTRACT_DESCRIPTOR);

    /**
     * The module exporting {@code g_dacTable}: a {@code coreclr.dll} or a single-file host (.NET 7 on, both export it:
     * dactable.cpp's linker directive, docs/reference/windows.md section 6). A module named {@code coreclr.dll} (any
     * folder, any case) that does not is refused naming what it has instead ({@link #refuseCoreclrWithoutExport}).
     */
    private LocatedPe locatePeModule(Memory memory, List<MinidumpModule> modules) throws TargetException {
        List<String> headersMissing = new ArrayList<>();
        List<String> corrupt = new ArrayList<>();
        List<MinidumpModule> coreclrWithoutExport = new ArrayList<>();
        for (MinidumpModule m : modules) {
            Map<String, Optional<Long>> found = new LinkedHashMap<>();
            try {
                PeExports exports = PeExports.inMemory(memory, m.base());
                Optional<Long> table = exports.lookup(DAC_TABLE);
                if (table.isEmpty()) {
                    if (m.fileName().equalsIgnoreCase(CORECLR_DLL)) {
                        coreclrWithoutExport.add(m);
                    }
                    continue;
                }
                for (String name : PE_EXPORTS_READ) {
                    found.put(name, exports.lookup(name));
                }
                return new LocatedPe(m, table.get(), found);
            } catch (MissingMemoryException e) {
                headersMissing.add(String.format("%s at 0x%x", m.fileName(), m.base()));
            } catch (ModuleFormatException e) {
                corrupt.add(e.getMessage());
            }
        }
        if (!coreclrWithoutExport.isEmpty()) {
            refuseCoreclrWithoutExport(memory, coreclrWithoutExport.getFirst());
        }
        if (!headersMissing.isEmpty()) {
            throw new TargetException(TargetException.Kind.MODULE_HEADERS_MISSING, String.format(
                    "no module in the dump exports g_dacTable, and the PE headers or export tables of %d modules are not in the dump (%s): "
                            + "the dump must hold the runtime module's image (take a full-memory dump)",
                    headersMissing.size(), headersMissing.size() <= 6 ? String.join(", ", headersMissing)
                            : String.join(", ", headersMissing.subList(0, 6)) + ", … " + (headersMissing.size() - 6) + " more"));
        }
        throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, "no module exports g_dacTable: not a .NET (CoreCLR) process dump ("
                + modules.size() + " modules checked" + (corrupt.isEmpty() ? "" : "; " + corrupt.size() + " not PE32+ images, the first: " + corrupt.get(0)) + ")");
    }

    /**
     * A {@code coreclr.dll} that does not export {@code g_dacTable}: with the resource {@code COREXTERNALDATAACCESSRESOURCE}
     * it is a runtime before .NET 7, whose table is 4-byte RVAs in that resource (clrheap has no layout of one); without
     * it, it holds the table in neither place the DAC of any version looks.
     *
     * @throws TargetException always: UNSUPPORTED_BUILD for the former, NOT_A_RUNTIME for the latter, INCONSISTENT or
     *                         MODULE_HEADERS_MISSING when its resource directory is corrupt or not in the dump
     */
    private static void refuseCoreclrWithoutExport(Memory memory, MinidumpModule m) throws TargetException {
        String module = String.format("%s at 0x%x%s", m.fileName(), m.base(), m.fileVersion().isEmpty() ? "" : " (file version " + m.fileVersion() + ")");
        Optional<DacTableResource> resource;
        try {
            resource = DacTableResource.inMemory(memory, m.base());
        } catch (ModuleFormatException e) {
            throw new TargetException(TargetException.Kind.INCONSISTENT, module + " does not export g_dacTable, and its resources cannot be read: "
                    + e.getMessage(), e);
        } catch (MissingMemoryException e) {
            throw new TargetException(TargetException.Kind.MODULE_HEADERS_MISSING, module + " does not export g_dacTable, and its resource "
                    + "directory is not in the dump (" + e.getMessage() + "): take a full-memory dump", e);
        }
        if (resource.isPresent()) {
            DacTableResource r = resource.get();
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "%s is a runtime before .NET 7: it does not export g_dacTable, and its DAC table is the resource %s at 0x%x "
                            + "(%d globals and %d vtables, 4-byte RVAs), which .NET 7 replaced by the export (dotnet/runtime#68065); "
                            + "clrheap has layouts of .NET 8, 9 and 10 only", module, DacTableResource.NAME, r.address(), r.numGlobals(), r.numVptrs()));
        }
        throw new TargetException(TargetException.Kind.NOT_A_RUNTIME, String.format(
                "%s has neither the export g_dacTable (.NET 7 and later) nor the resource %s (type RT_RCDATA; before .NET 7): "
                        + "it holds no DAC table where any DAC looks for one", module, DacTableResource.NAME));
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

    /** The contracts (name → version) of the module's contract descriptor, when it is exported and readable. */
    private Optional<Map<String, Long>> descriptorContracts(Memory memory, ModuleExports exports) {
        try {
            Optional<Long> address = exports.address(CONTRACT_DESCRIPTOR);
            if (address.isEmpty()) {
                return Optional.empty();
            }
            // the descriptor's layout is the same in every version that has one (docs/reference/clr-layouts.md section 13)
            RuntimeLayout layout = profiles.load(RuntimeVersion.NET9, GcFlavor.WORKSTATION);
            ContractDescriptor d = new ViewFactory(layout).view(ContractDescriptor.class, memory, address.get());
            if (d.magic() != layout.constant("contract_descriptor.magic")) {
                return Optional.empty();
            }
            long size = d.descriptorSize();
            if (size <= 0 || size > MAX_DESCRIPTOR_BYTES) {
                return Optional.empty();
            }
            JsonNode json = new ObjectMapper().readTree(new String(memory.readBytes(d.descriptor(), (int) size), StandardCharsets.UTF_8));
            JsonNode node = json.path("contracts");
            if (!node.isObject()) {
                return Optional.empty();
            }
            Map<String, Long> contracts = new java.util.TreeMap<>();
            for (var e : node.properties()) {
                if (!e.getValue().canConvertToLong()) {
                    return Optional.empty();
                }
                contracts.put(e.getKey(), e.getValue().asLong());
            }
            return Optional.of(contracts);
        } catch (MissingMemoryException | java.io.IOException e) {
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
