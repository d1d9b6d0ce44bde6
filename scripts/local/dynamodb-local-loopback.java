import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local (the jar's own ServerRunner, same options), listening on 127.0.0.1 only.
 *
 * The jar has no bind-address option and honours no system property for one: DynamoDBProxyServer
 * builds `new org.eclipse.jetty.server.Server(port)`, whose connector has no host and so binds the
 * wildcard address. Before the server starts, its connector is given the loopback host. The Jetty
 * server is a private field: if a future jar renames it, this fails at start instead of exposing
 * the database. local-stack.ts compiles it once (javac, kept in node_modules/.cache) and runs the
 * class; `java -cp DynamoDBLocal.jar dynamodb-local-loopback.java <options>` runs it from source
 * too (a JDK compiles it in memory at each start), which local-stack.ts falls back to. It exits when its stdin ends
 * (its parent died), so a crashed npm start leaves no database behind.
 */
public class DynamoDbLocalLoopback {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field jetty = DynamoDBProxyServer.class.getDeclaredField("server");
    jetty.setAccessible(true);
    for (Connector connector : ((Server) jetty.get(proxy)).getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    // Its parent (npm start, the tests, the bench) holds this process's stdin open and never writes:
    // when the parent is gone, however it ended (SIGKILL included), stdin ends and so does this.
    Thread watcher = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (java.io.IOException ignored) {
      }
      System.exit(0);
    });
    watcher.setDaemon(true);
    watcher.start();
  }
}
