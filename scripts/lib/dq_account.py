"""An account and its API key, made with dqctl, for the scripts that start their own stack."""
import json
import subprocess


def new_account(dqctl, env, plan="agency", name=None):
    """Runs `dqctl account create` (with `--name` when given) and `dqctl key create` with `env`
    (which names the stack's Redis); returns (account_id, api_key)."""
    argv = [dqctl, "account", "create", "--plan", plan] + (["--name", name] if name else [])
    account = json.loads(subprocess.check_output(argv, env=env))["account_id"]
    key = json.loads(subprocess.check_output([dqctl, "key", "create", "--account", account],
                                             env=env))["api_key"]
    return account, key
