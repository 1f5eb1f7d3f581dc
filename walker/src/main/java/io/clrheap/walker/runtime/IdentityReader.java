package io.clrheap.walker.runtime;

import io.clrheap.layout.BuildIdentity;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.DotNetRuntimeInfo;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads which build a dump's runtime is from what the build says of itself in the dump (docs/reference/discovery.md
 * section 3), in order of what it tells:
 * <ol>
 *   <li>the sccsid string {@code @(#)Version 9.0.725.31616 @Commit: 3c298d9f…} in the runtime module's writable data
 *       (every libcoreclr.so and single-file host has it; version, file version and commit);</li>
 *   <li>{@code DotNetRuntimeInfo.RuntimeVersion} where the module exports it (8 and 10 single-file hosts: the file
 *       version, no commit);</li>
 *   <li>the runtime folder's name in the module's path ({@code …/Microsoft.NETCore.App/9.0.1/libcoreclr.so}: the
 *       version only; a framework-dependent app's runtime).</li>
 * </ol>
 * A dump that holds none of them (a {@code createdump --withheap} dump of a self-contained app leaves the module's data
 * out) has no identity: the build is then narrowed by the length of its {@code g_dacTable} ({@link BuildChooser}).
 */
public final class IdentityReader {

    /** The writable data of libcoreclr.so is about 160 KB, that of a single-file host about 230 KB: far less than this. */
    private static final long MAX_SCAN = 32L << 20;
    private static final int CHUNK = 1 << 20;
    private static final int PAGE = 4096;
    /** An sccsid string is under 100 bytes: chunks overlap by this much so that none is cut in two. */
    private static final int OVERLAP = 160;
    private static final byte[] RUNTIME_INFO_SIGNATURE = "DotNetRuntimeInfo\0".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern FRAMEWORK_FOLDER = Pattern.compile("/Microsoft\\.NETCore\\.App/([0-9]{1,5}\\.[0-9]{1,5}\\.[0-9]{1,5})/[^/]+$");

    /** An identity and where it was read, e.g. {@code the @(#)Version string of libcoreclr.so at 0x7f…}. */
    public record Found(BuildIdentity identity, String source) {

        public String version() {
            return identity.version();
        }

        public String fileVersion() {
            return identity.fileVersion();
        }

        /** The commit, empty when only DotNetRuntimeInfo or the folder's name told the version. */
        public String commit() {
            return identity.commit();
        }

        public int major() {
            return identity.major();
        }
    }

    private IdentityReader() {
    }

    /** The first identity the ELF module gives, by the order above. */
    static Optional<Found> read(Memory memory, RuntimeModule module, Optional<ElfDynamicSymbols> symbols, ModuleExports exports, ProfileLoader profiles) {
        if (symbols.isPresent()) {
            Optional<Found> sccsid = sccsid(memory, symbols.get().writableData(), module.fileName());
            if (sccsid.isPresent()) {
                return sccsid;
            }
        }
        Optional<Found> info = runtimeInfo(memory, exports, profiles);
        if (info.isPresent()) {
            return info;
        }
        return fromPath(module.path());
    }

    /** The sccsid string in the given ranges of the module's writable data; ranges (or parts) not in the dump are skipped. */
    static Optional<Found> sccsid(Memory memory, List<ElfDynamicSymbols.AddressRange> ranges, String moduleName) {
        long budget = MAX_SCAN;
        for (ElfDynamicSymbols.AddressRange range : ranges) {
            long end = range.start() + Math.min(range.length(), budget);
            budget -= Math.min(range.length(), budget);
            for (long at = range.start(); at < end; at += CHUNK) {
                int length = (int) Math.min(CHUNK + OVERLAP, end - at);
                byte[] bytes = readPresent(memory, at, length);
                Optional<BuildIdentity.Found> found = BuildIdentity.findSccsid(new String(bytes, StandardCharsets.ISO_8859_1));
                if (found.isPresent()) {
                    return Optional.of(new Found(found.get().identity(), String.format(
                            "the @(#)Version string of %s at 0x%x", moduleName, at + found.get().offset())));
                }
            }
            if (budget == 0) {
                break;
            }
        }
        return Optional.empty();
    }

    /** {@code length} bytes from {@code address}, with zeros where pages are not in the dump. */
    private static byte[] readPresent(Memory memory, long address, int length) {
        byte[] bytes = new byte[length];
        try {
            memory.read(address, bytes, 0, length);
            return bytes;
        } catch (MissingMemoryException whole) {
            for (int at = 0; at < length; ) {
                int page = (int) Math.min(PAGE - Long.remainderUnsigned(address + at, PAGE), length - at);
                try {
                    memory.read(address + at, bytes, at, page);
                } catch (MissingMemoryException missing) {
                    // left as zeros: no version string spans a missing page
                }
                at += page;
            }
            return bytes;
        }
    }

    /** DotNetRuntimeInfo's RuntimeVersion (the four-part file version), where the module exports it. */
    static Optional<Found> runtimeInfo(Memory memory, ModuleExports exports, ProfileLoader profiles) {
        try {
            Optional<Long> sym = exports.address("DotNetRuntimeInfo");
            if (sym.isEmpty()) {
                return Optional.empty();
            }
            long a = sym.get();
            if (!java.util.Arrays.equals(memory.readBytes(a, RUNTIME_INFO_SIGNATURE.length), RUNTIME_INFO_SIGNATURE)) {
                return Optional.empty();
            }
            // layout-independent of the version's profile: DotNetRuntimeInfo is the same in every build (baseline)
            DotNetRuntimeInfo info = new ViewFactory(profiles.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION))
                    .view(DotNetRuntimeInfo.class, memory, a);
            if (info.version() < 2) {
                return Optional.empty();
            }
            String fileVersion = info.runtimeVersion(0) + "." + info.runtimeVersion(1) + "." + info.runtimeVersion(2) + "." + info.runtimeVersion(3);
            return Optional.of(new Found(BuildIdentity.ofFileVersion(fileVersion, ""), String.format("DotNetRuntimeInfo at 0x%x", a)));
        } catch (MissingMemoryException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The file version of a minidump module's version resource (VS_FIXEDFILEINFO in its module list entry), where the
     * entry holds one; no commit.
     */
    static Optional<Found> versionResource(io.clrheap.walker.source.minidump.MinidumpModule module) {
        if (module.fileVersion().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Found(BuildIdentity.ofFileVersion(module.fileVersion(), ""),
                    "the version resource (VS_FIXEDFILEINFO) of " + module.fileName() + " in the minidump's module list"));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The file version of the RT_VERSION resource in the PE image of a minidump module, read from the dump's memory
     * (VS_FIXEDFILEINFO: docs/reference/windows.md section 6); empty when the image has none or it cannot be read
     * (the walker then tries what names the build next).
     */
    static Optional<Found> imageVersionResource(Memory memory, io.clrheap.walker.source.minidump.MinidumpModule module) {
        try {
            Optional<io.clrheap.walker.symbols.VersionResource> v = io.clrheap.walker.symbols.VersionResource.inMemory(memory, module.base());
            if (v.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Found(BuildIdentity.ofFileVersion(v.get().fileVersion(), ""), String.format(
                    "the version resource (RT_VERSION, VS_FIXEDFILEINFO at 0x%x) of %s's image", v.get().address(), module.fileName())));
        } catch (io.clrheap.walker.symbols.ModuleFormatException | MissingMemoryException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The version a shared runtime's folder names ({@code …/Microsoft.NETCore.App/9.0.1/libcoreclr.so}). */
    static Optional<Found> fromPath(String path) {
        Matcher m = FRAMEWORK_FOLDER.matcher(path);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new Found(new BuildIdentity(m.group(1), "", ""), "the runtime folder of " + path));
    }
}
