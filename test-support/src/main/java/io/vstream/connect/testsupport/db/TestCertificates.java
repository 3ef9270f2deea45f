package io.vstream.connect.testsupport.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for TLS tests, made by the {@code openssl} command in a directory of their own: a CA, a server
 * certificate it signs for {@code 127.0.0.1} and {@code localhost} (what the tests' servers are reached as), and a
 * second, unrelated CA, whose trust must not accept that server. {@link #serverConfig} gives the {@code my.cnf} lines
 * of a server that requires TLS with them.
 */
public final class TestCertificates {
    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** Makes the certificates in a new temporary directory. */
    public static TestCertificates create() {
        try {
            Path dir = Files.createTempDirectory("vstream-tls-");
            dir.toFile().deleteOnExit();
            TestCertificates certs = new TestCertificates(dir);
            certs.make();
            return certs;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot make test certificates: " + e.getMessage(), e);
        }
    }

    private void make() throws IOException {
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
                StandardCharsets.UTF_8);
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days",
                "3650", "-subj", "/CN=vstream-connect test CA");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                "/CN=localhost");
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem", "-days", "3650", "-extfile", "server.ext");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other-ca.key", "-out", "other-ca.pem",
                "-days", "3650", "-subj", "/CN=another CA");
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("openssl " + String.join(" ", args) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted", e);
        }
    }

    /** The CA that signed the servers' certificate (PEM). */
    public Path ca() {
        return dir.resolve("ca.pem");
    }

    /** A CA that signed nothing the servers present (PEM). */
    public Path otherCa() {
        return dir.resolve("other-ca.pem");
    }

    /** The {@code [mysqld]} lines of a server with these certificates that refuses connections without TLS. */
    public String[] serverConfig() {
        return new String[] {"ssl_ca=" + ca(), "ssl_cert=" + dir.resolve("server.pem"),
            "ssl_key=" + dir.resolve("server.key"), "require_secure_transport=ON"};
    }
}
