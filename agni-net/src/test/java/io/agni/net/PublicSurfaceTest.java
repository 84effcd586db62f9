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
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

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
