// clrheap's live-process test program (DotnetTestProcess compiles it with Debian's mcs at test time).
//
// It allocates known objects, keeps them alive from a static root, forces full GCs so that the first ones are in
// gen2 and the later ones in gen0, prints one line per object and READY on stdout, then waits for a line (or end of
// file) on stdin and ends the process.
//
// Output lines (ASCII, one space between fields):
//   PID pid
//   RUNTIME version-of-CoreLib
//   GC server|workstation|unknown   (unknown: the trimmed 10.0 CoreLib has neither GC.GetConfigurationVariables nor GCSettings)
//   GCCONFIG key value           what GC.GetConfigurationVariables() says (.NET 7+), one line per variable
//   HEAPS n                      the GC heap count, when the program can tell
//   OBJ label 0xaddress 0xmethodtable size type generation
//   READY
// size is BaseSize + component count x component size, unaligned: what a heap walker reports (an empty string 22).
// generation is GC.GetGeneration (2147483647 for an object in a frozen segment, such as a string literal).
//
// The same source runs as a startup hook (8 and 9: compiled against Mono's mscorlib, which forwards to
// System.Private.CoreLib) and as the main program of a single-file bundle (10: compiled with -nostdlib against the
// .NET Core 2.0 System.Private.CoreLib). So it uses only what CoreLib 2.0 has, reaches newer APIs by reflection, and
// does its I/O through libc.

using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.InteropServices;

public class ProbeNode
{
    public int Number;
    public long Wide;
    public double Real;
    public string Name;
    public ProbeNode Next;
    public object Payload;
}

public struct ProbePoint
{
    public int X;
    public int Y;
}

public static unsafe class HeapProbe
{
    [DllImport("libc.so.6")] static extern IntPtr write(int fd, byte* buffer, IntPtr count);
    [DllImport("libc.so.6")] static extern IntPtr read(int fd, byte* buffer, IntPtr count);
    [DllImport("libc.so.6")] static extern int getpid();
    [DllImport("libc.so.6")] static extern void _exit(int status);

    const int SmallObjects = 3000;

    // the roots: every reported object stays reachable from here until the process ends
    static object[] objects;
    static string[] labels;
    static string[] types;
    static int count;
    static long[] addresses;
    static GCHandle pinHandle;

    static byte[] output = new byte[1 << 20];
    static int outputLength;

    static void Keep(string label, object o)
    {
        labels[count] = label;
        objects[count] = o;
        count++;
    }

    public static void Run()
    {
        objects = new object[SmallObjects + 100];
        labels = new string[SmallObjects + 100];
        types = new string[SmallObjects + 100];
        addresses = new long[SmallObjects + 100];

        // old objects: allocated first, then promoted to gen2 by full blocking GCs
        Keep("object", new object());
        Keep("string.empty", string.Empty);
        Keep("string.literal", "clrheap literal");
        Keep("string.heap", string.Concat("clrheap ", "heap string"));
        Keep("bytes.0", new byte[0]);
        Keep("bytes.1", new byte[1]);
        Keep("bytes.7", new byte[7]);
        Keep("bytes.8", new byte[8]);
        Keep("bytes.100", new byte[100]);
        int[] numbers = new int[10];
        for (int i = 0; i < numbers.Length; i++) numbers[i] = i * i;
        Keep("ints.10", numbers);
        Keep("longs.3", new long[] { 1, 2, 3 });
        Keep("chars.5", new char[] { 'h', 'e', 'l', 'l', 'o' });
        Keep("points.4", new ProbePoint[4]);
        Keep("ints.2x3", new int[2, 3]);
        ProbeNode first = new ProbeNode();
        first.Number = 42;
        first.Wide = 0x1122334455667788L;
        first.Real = 2.5;
        first.Name = "first node";
        ProbeNode second = new ProbeNode();
        second.Number = 43;
        second.Next = first;
        second.Payload = numbers;
        Keep("node.first", first);
        Keep("node.second", second);
        object[] refs = new object[] { first, second, numbers, null, "in an array" };
        Keep("refs.5", refs);
        Keep("boxed.int", (object) 12345);
        Keep("loh.bytes.100000", new byte[100000]);
        byte[] pinned = new byte[256];
        pinHandle = GCHandle.Alloc(pinned, GCHandleType.Pinned);
        Keep("pinned.handle.bytes.256", pinned);

        FullGC();
        FullGC();

        // young objects: allocated after the last GC, in gen0
        Keep("young.object", new object());
        Keep("young.string", string.Concat("young ", "string"));
        Keep("young.bytes.33", new byte[33]);
        Keep("young.refs.3", new object[] { first, null, refs });
        ProbeNode young = new ProbeNode();
        young.Next = second;
        young.Name = "young node";
        Keep("young.node", young);
        object poh = PinnedObjectHeapArray(64);
        if (poh != null) Keep("poh.bytes.64", poh);
        ProbeNode chain = null;
        for (int i = 0; i < SmallObjects; i++)
        {
            object o;
            switch (i % 3)
            {
                case 0:
                    ProbeNode n = new ProbeNode();
                    n.Number = i;
                    n.Next = chain;
                    chain = n;
                    o = n;
                    break;
                case 1:
                    o = new byte[i % 40];
                    break;
                default:
                    o = new object[] { chain };
                    break;
            }
            Keep("small." + i, o);
        }

        // everything that allocates happens before the addresses are read
        for (int i = 0; i < count; i++) types[i] = objects[i].GetType().FullName;
        string runtime = typeof(object).Assembly.GetName().Version.ToString();
        List<string> config = GcConfiguration();
        int server = IsServerGC(config); // -1: cannot tell
        int heaps = HeapCount(config, server);

        Line("PID ", getpid().ToString());
        Line("RUNTIME ", runtime);
        Line("GC ", server == 1 ? "server" : server == 0 ? "workstation" : "unknown");
        for (int i = 0; i < config.Count; i++) Line("GCCONFIG ", config[i]);
        if (heaps > 0) Line("HEAPS ", heaps.ToString());
        Flush();

        // from here on nothing allocates, so no GC moves what was read before it is printed
        for (int i = 0; i < count; i++)
        {
            object o = objects[i];
            TypedReference tr = __makeref(o);
            long address = (long) **(IntPtr**) &tr;
            addresses[i] = address;
            long mt = (long) *(IntPtr*) address;
            uint flags = *(uint*) mt;
            uint baseSize = *(uint*) (mt + 4);
            long size = baseSize;
            if ((flags & 0x80000000u) != 0)
            {
                uint componentSize = flags & 0xFFFF;
                uint components = *(uint*) (address + 8);
                size += (long) components * componentSize;
            }
            Append("OBJ ");
            Append(labels[i]);
            Append(" 0x");
            AppendHex(address);
            Append(" 0x");
            AppendHex(mt);
            Append(" ");
            AppendDecimal(size);
            Append(" ");
            Append(types[i]);
            Append(" ");
            AppendDecimal(GC.GetGeneration(o));
            Append("\n");
            if (outputLength > output.Length - 4096) Flush();
        }
        // a GC between reading an address and here would have moved the object: say so rather than lie
        for (int i = 0; i < count; i++)
        {
            object o = objects[i];
            TypedReference tr = __makeref(o);
            if ((long) **(IntPtr**) &tr != addresses[i])
            {
                Append("MOVED ");
                Append(labels[i]);
                Append("\n");
                Flush();
                _exit(4);
            }
        }
        Append("READY\n");
        Flush();

        // wait for a line (or end of file) on stdin, then end the process
        byte* one = stackalloc byte[1];
        while (true)
        {
            long got = (long) read(0, one, (IntPtr) 1);
            if (got <= 0 || *one == (byte) '\n') break;
        }
        GC.KeepAlive(objects);
    }

    // ends the process the orderly way (the runtime removes its diagnostics socket), when Environment.Exit is there
    public static void Exit()
    {
        try
        {
            // by name: the .NET Core 2.0 CoreLib that 10.0's program compiles against has Environment internal
            Type environment = typeof(object).Assembly.GetType("System.Environment");
            MethodInfo exit = environment == null ? null : environment.GetMethod("Exit", BindingFlags.Public | BindingFlags.Static);
            if (exit != null) exit.Invoke(null, new object[] { 0 });
        }
        catch (Exception)
        {
        }
        _exit(0);
    }

    static void FullGC()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    // GC.AllocateArray<T>(length, pinned: true) (.NET 5+) puts the array on the pinned object heap; trimmed runtimes
    // may have only GC.AllocateUninitializedArray<T>
    static object PinnedObjectHeapArray(int length)
    {
        string[] names = { "AllocateArray", "AllocateUninitializedArray" };
        for (int i = 0; i < names.Length; i++)
        {
            try
            {
                MethodInfo method = typeof(GC).GetMethod(names[i], BindingFlags.Public | BindingFlags.Static);
                if (method == null) continue;
                return method.MakeGenericMethod(typeof(byte)).Invoke(null, new object[] { length, true });
            }
            catch (Exception)
            {
            }
        }
        return null;
    }

    // GC.GetConfigurationVariables() (.NET 7+) as "key value" strings, or none
    static List<string> GcConfiguration()
    {
        List<string> lines = new List<string>();
        try
        {
            MethodInfo method = typeof(GC).GetMethod("GetConfigurationVariables", BindingFlags.Public | BindingFlags.Static);
            if (method == null) return lines;
            IEnumerable<KeyValuePair<string, object>> variables = (IEnumerable<KeyValuePair<string, object>>) method.Invoke(null, null);
            foreach (KeyValuePair<string, object> variable in variables)
            {
                lines.Add(string.Concat(variable.Key, " ", variable.Value == null ? "null" : variable.Value.ToString()));
            }
        }
        catch (Exception)
        {
        }
        return lines;
    }

    // GCSettings.IsServerGC, which a trimmed CoreLib may lack (10.0's single-file azmcp does): the GC's own
    // configuration first, then GCSettings by reflection
    static int IsServerGC(List<string> config)
    {
        for (int i = 0; i < config.Count; i++)
        {
            if (config[i] == "ServerGC True") return 1;
            if (config[i] == "ServerGC False") return 0;
        }
        try
        {
            Type settings = typeof(GC).Assembly.GetType("System.Runtime.GCSettings");
            if (settings != null)
            {
                PropertyInfo property = settings.GetProperty("IsServerGC", BindingFlags.Public | BindingFlags.Static);
                if (property != null) return (bool) property.GetValue(null, null) ? 1 : 0;
            }
        }
        catch (Exception)
        {
        }
        return -1;
    }

    // 0 when the program cannot tell
    static int HeapCount(List<string> config, int server)
    {
        if (server == 0) return 1;
        for (int i = 0; i < config.Count; i++)
        {
            string line = config[i];
            string[] keys = { "HeapCount ", "GCHeapCount ", "System.GC.HeapCount " };
            for (int k = 0; k < keys.Length; k++)
            {
                if (line.StartsWith(keys[k], StringComparison.Ordinal))
                {
                    int value;
                    if (int.TryParse(line.Substring(keys[k].Length), out value) && value > 0) return value;
                }
            }
        }
        return 0;
    }

    static void Line(string head, string rest)
    {
        Append(head);
        Append(rest);
        Append("\n");
    }

    static void Append(string text)
    {
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            output[outputLength++] = c < 0x80 && c > ' ' || c == ' ' || c == '\n' ? (byte) c : (byte) '?';
        }
    }

    static void AppendHex(long value)
    {
        int digits = 1;
        while (digits < 16 && (ulong) value >> (4 * digits) != 0) digits++;
        for (int d = digits - 1; d >= 0; d--)
        {
            int nibble = (int) (((ulong) value >> (4 * d)) & 0xF);
            output[outputLength++] = (byte) (nibble < 10 ? '0' + nibble : 'a' + nibble - 10);
        }
    }

    static void AppendDecimal(long value)
    {
        if (value < 0)
        {
            output[outputLength++] = (byte) '-';
            value = -value;
        }
        long divisor = 1;
        while (value / divisor >= 10) divisor *= 10;
        for (; divisor > 0; divisor /= 10) output[outputLength++] = (byte) ('0' + value / divisor % 10);
    }

    static void Flush()
    {
        fixed (byte* start = output)
        {
            int done = 0;
            while (done < outputLength)
            {
                long wrote = (long) write(1, start + done, (IntPtr) (outputLength - done));
                if (wrote <= 0) _exit(3);
                done += (int) wrote;
            }
        }
        outputLength = 0;
    }
}

// .NET 8 and 9: DOTNET_STARTUP_HOOKS runs this before the host application's Main
public class StartupHook
{
    public static void Initialize()
    {
        HeapProbe.Run();
        HeapProbe.Exit(); // not the host application's own Main
    }
}

// .NET 10: the program is the bundle's main assembly
public static class HeapProbeMain
{
    public static int Main(string[] args)
    {
        HeapProbe.Run();
        return 0; // the runtime shuts down the orderly way
    }
}
