package io.jupiter.registry.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jupiter.registry.ServiceMeta;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The manifests of examples/kubernetes: they parse, their names agree with each other, with the Spring example's
 * service key and with docs/kubernetes.md.
 */
class ExampleManifestsTest {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    private static final Path EXAMPLES = ROOT.resolve("examples/kubernetes");
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    @Test
    void theProviderServiceNamesTheExampleServiceKeyAndItsPort() throws IOException {
        List<HasMetadata> provider = load("provider.yaml");
        Service service = only(provider, Service.class);
        Deployment deployment = only(provider, Deployment.class);
        Map<String, String> labels = service.getMetadata().getLabels();

        ServiceMeta key = new ServiceMeta(labels.get(ServiceLabels.GROUP), labels.get(ServiceLabels.SERVICE),
                labels.get(ServiceLabels.VERSION));
        ServiceLabels.checkLabelable(key);
        assertThat(key).isEqualTo(exampleServiceKey());
        assertThat(Integer.parseInt(labels.get(ServiceLabels.WEIGHT))).isBetween(0, 100);
        assertThat(Integer.parseInt(labels.get(ServiceLabels.CONNECTIONS))).isBetween(1, 64);

        ServicePort port = service.getSpec().getPorts().stream()
                .filter(p -> ServiceLabels.DEFAULT_PORT_NAME.equals(p.getName())).findFirst().orElseThrow();
        assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        int containerPort = container.getPorts().stream()
                .filter(p -> port.getTargetPort().getStrVal().equals(p.getName())).findFirst().orElseThrow()
                .getContainerPort();

        Properties properties = properties(only(provider, ConfigMap.class));
        assertThat(Integer.parseInt(properties.getProperty("jupiter.server.port"))).isEqualTo(containerPort);
        assertThat(registryTarget(properties).namespace()).isEqualTo("shop");
        assertThat(container.getReadinessProbe()).isNotNull();
        assertThat(container.getEnv()).anySatisfy(env -> {
            assertThat(env.getName()).isEqualTo("POD_NAMESPACE");
            assertThat(env.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
        });

        // The drain: preStop sleep, then the graceful shutdown, within the grace period.
        List<String> preStop = container.getLifecycle().getPreStop().getExec().getCommand();
        assertThat(preStop.get(0)).isEqualTo("sleep");
        long sleepSeconds = Long.parseLong(preStop.get(1));
        long shutdownSeconds = Long.parseLong(properties.getProperty("jupiter.server.shutdown-timeout")
                .replace("s", ""));
        assertThat(deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .isGreaterThan(sleepSeconds + shutdownSeconds);
    }

    @Test
    void theConsumerMayOnlyReadEndpointSlicesOfItsNamespace() throws IOException {
        List<HasMetadata> consumer = load("consumer.yaml");
        ServiceAccount account = only(consumer, ServiceAccount.class);
        Role role = only(consumer, Role.class);
        RoleBinding binding = only(consumer, RoleBinding.class);
        Deployment deployment = only(consumer, Deployment.class);

        assertThat(role.getRules()).hasSize(1);
        PolicyRule rule = role.getRules().get(0);
        assertThat(rule.getApiGroups()).containsExactly("discovery.k8s.io");
        assertThat(rule.getResources()).containsExactly("endpointslices");
        assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo(account.getMetadata().getName());
        });
        assertThat(deployment.getSpec().getTemplate().getSpec().getServiceAccountName())
                .isEqualTo(account.getMetadata().getName());

        KubernetesTarget target = registryTarget(properties(only(consumer, ConfigMap.class)));
        assertThat(target.namespace()).isEqualTo("shop");
        assertThat(target.portName()).isEqualTo(ServiceLabels.DEFAULT_PORT_NAME);
        assertThat(target.apiServer()).isNull();
    }

    @Test
    void theDocsNameWhatTheManifestsUse() throws IOException {
        String docs = Files.readString(ROOT.resolve("docs/kubernetes.md"));
        for (String name : List.of(ServiceLabels.GROUP, ServiceLabels.SERVICE, ServiceLabels.VERSION,
                ServiceLabels.WEIGHT, ServiceLabels.CONNECTIONS, "name: " + ServiceLabels.DEFAULT_PORT_NAME,
                "endpointslices", "discovery.k8s.io", "jupiter-endpointslice-reader", "preStop",
                "jupiter.server.shutdown-timeout", "kubernetes://", "examples/kubernetes")) {
            assertThat(docs).as("docs/kubernetes.md names " + name).contains(name);
        }
        Role role = only(load("consumer.yaml"), Role.class);
        assertThat(docs).contains("verbs: [\"" + String.join("\", \"", role.getRules().get(0).getVerbs()) + "\"]");
    }

    /** The key of the Spring example's Greeter, read from its source. */
    private static ServiceMeta exampleServiceKey() throws IOException {
        String source = Files.readString(ROOT.resolve(
                "jupiter-example-spring/src/main/java/io/jupiter/example/spring/api/Greeter.java"));
        Matcher matcher = Pattern.compile("@ServiceProvider\\(group = \"([^\"]+)\", name = \"([^\"]+)\"\\)")
                .matcher(source);
        assertThat(matcher.find()).as("Greeter's @ServiceProvider").isTrue();
        return new ServiceMeta(matcher.group(1), matcher.group(2), "1.0.0");
    }

    private List<HasMetadata> load(String file) throws IOException {
        List<HasMetadata> resources = new ArrayList<>();
        for (String document : Files.readString(EXAMPLES.resolve(file)).split("(?m)^---$")) {
            if (!document.replaceAll("(?m)^#.*$", "").isBlank()) {
                resources.add(serialization.unmarshal(document, HasMetadata.class));
            }
        }
        return resources;
    }

    private static <T extends HasMetadata> T only(List<HasMetadata> resources, Class<T> type) {
        List<T> found = resources.stream().filter(type::isInstance).map(type::cast).toList();
        assertThat(found).as(type.getSimpleName()).hasSize(1);
        return found.get(0);
    }

    private static Properties properties(ConfigMap map) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(map.getData().get("application.properties")));
        return properties;
    }

    /** The registry URL, with the namespace the Downward API gives the pod ("shop" here). */
    private static KubernetesTarget registryTarget(Properties properties) {
        String url = properties.getProperty("jupiter.registry.address").replace("${POD_NAMESPACE}", "shop");
        assertThat(url).startsWith(KubernetesRegistryFactory.SCHEME + "://");
        return KubernetesTarget.parse(url.substring(url.indexOf("://") + 3));
    }
}
