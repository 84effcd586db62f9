package io.agni.net;

import io.agni.api.AgniStore;
import io.agni.protocol.RespDecoder;
import io.agni.store.OffHeapStore;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a module-path user of agni sees: the packages each module exports, and to whom. Tests run on the class path,
 * where exports do not apply, so this reads the compiled module descriptors themselves.
 */
class PublicSurfaceTest
{
    @Test
    void apiExportsItsInternalPackageOnlyToAgnisModules() throws Exception
    {
        final ModuleDescriptor api = descriptorOf(AgniStore.class);

        assertEquals("io.agni.api", api.name());
        assertEquals(
            Map.of("io.agni.api", Set.of(), "io.agni.api.internal", Set.of("io.agni.store", "io.agni.protocol")),
            exports(api));
    }

    @Test
    void protocolExportsItsCommandTableOnlyToTheNetworkModule() throws Exception
    {
        final ModuleDescriptor protocol = descriptorOf(RespDecoder.class);

        assertEquals("io.agni.protocol", protocol.name());
        assertEquals(
            Map.of("io.agni.protocol", Set.of(), "io.agni.protocol.command", Set.of("io.agni.net")),
            exports(protocol));
    }

    @Test
    void networkModuleExportsOnlyItsApiAndPassesOnTheCodecItsBuilderTakes() throws Exception
    {
        final ModuleDescriptor net = descriptorOf(AgniServer.class);

        assertEquals(Map.of("io.agni.net", Set.of()), exports(net));
        // AgniServerBuilder.protocolLimits takes an io.agni.protocol.ProtocolLimits, so readers of io.agni.net must
        // read io.agni.protocol; the command table stays hidden by the qualified export above.
        final Requires protocol = net.requires().stream()
            .filter(r -> r.name().equals("io.agni.protocol"))
            .findFirst()
            .orElseThrow();
        assertTrue(protocol.modifiers().contains(Requires.Modifier.TRANSITIVE));
    }

    @Test
    void storeExportsOnlyItsOwnPackageAndKeepsItsIntegrityCheckForTests() throws Exception
    {
        assertEquals(Map.of("io.agni.store", Set.of()), exports(descriptorOf(OffHeapStore.class)));

        final int modifiers = OffHeapStore.class.getDeclaredMethod("verifyIntegrity").getModifiers();
        assertFalse(Modifier.isPublic(modifiers), "OffHeapStore.verifyIntegrity() is for agni-store's tests only");
    }

    /**
     * The names of the store's public methods are the ones it had when its capabilities were interfaces of its class,
     * plus the four accessors that now reach them (issue 32): {@code checkpointing}, {@code transactional},
     * {@code evicting} and {@code deferredDurability}. Each capability's methods stay methods of the class too, so
     * code that called them on an {@code OffHeapStore} compiles unchanged; what changed is that the class no longer
     * implements {@code Checkpointing}, {@code Transactional}, {@code Evicting} and {@code DeferredDurability}, so
     * that an {@code instanceof} cannot say yes for a store that keeps nothing on disk.
     */
    @Test
    void storeKeepsItsMethodNamesAndOffersItsCapabilitiesThroughAccessorsOnly()
    {
        final Set<String> names = new TreeSet<>();
        for (final Method method : OffHeapStore.class.getMethods())
        {
            if (method.getDeclaringClass() != Object.class)
            {
                names.add(method.getName());
            }
        }
        assertEquals(new TreeSet<>(List.of("append", "awaitDurable", "builder", "checkpoint",
            "checkpointInBackground", "checkpointStatus", "checkpointing", "clear", "close", "currentTimeMillis",
            "deferDurability", "deferredDurability", "delete", "durability", "evicting", "evictionPolicy", "exists",
            "expire", "expireAfter", "expireTimeMillis", "get", "getAll", "getAndDelete", "getAndExpire", "getAndSet",
            "getRange", "incrementBy", "incrementByFloat", "maxKeyLength", "maxMemory", "maxValueLength", "open",
            "persist", "randomKey", "rename", "runExclusive", "scan", "set", "setAll", "setRange", "shardCount",
            "size", "stats", "sweepExpired", "sync", "toString", "transactional", "ttlMillis", "valueLength", "write",
            "writesAwaitDurable")), names);
        assertEquals(List.of(AgniStore.class), List.of(OffHeapStore.class.getInterfaces()));
        for (final String accessor : List.of("checkpointing", "transactional", "evicting", "deferredDurability"))
        {
            assertDoesNotThrow(() -> assertEquals(Optional.class, AgniStore.class.getMethod(accessor).getReturnType()));
        }
    }

    private static Map<String, Set<String>> exports(final ModuleDescriptor descriptor)
    {
        final Map<String, Set<String>> exports = new TreeMap<>();
        for (final Exports export : descriptor.exports())
        {
            exports.put(export.source(), export.targets().stream().collect(Collectors.toSet()));
        }
        return exports;
    }

    private static ModuleDescriptor descriptorOf(final Class<?> type)
        throws IOException, URISyntaxException
    {
        final Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        if (Files.isDirectory(location))
        {
            try (InputStream in = Files.newInputStream(location.resolve("module-info.class")))
            {
                return ModuleDescriptor.read(in);
            }
        }
        try (JarFile jar = new JarFile(location.toFile()); InputStream in = jar.getInputStream(
            jar.getEntry("module-info.class")))
        {
            return ModuleDescriptor.read(in);
        }
    }
}
