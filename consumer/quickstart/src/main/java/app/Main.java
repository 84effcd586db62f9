package app;

import io.agni.api.AgniStore;
import io.agni.store.OffHeapStore;
import java.nio.file.Path;
import static java.nio.charset.StandardCharsets.UTF_8;

public class Main
{
    public static void main(String[] args)
    {
        try (AgniStore store = OffHeapStore.builder()
                .maxMemory(256L << 20)                  // 256 MiB off-heap
                .directory(Path.of("agni-data"))        // kept across runs; omit it for memory only
                .build())
        {
            long runs = store.incrementBy("runs".getBytes(UTF_8), 1);
            System.out.println("run " + runs);
        }
    }
}
