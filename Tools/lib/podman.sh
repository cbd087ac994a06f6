# Sourced by the scripts that build and run the container image: podman with the project's
# settings (Tools/lib/containers.conf).
CONTAINERS_CONF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf"
export CONTAINERS_CONF
