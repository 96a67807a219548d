"""The KV-cache kata's graders and its `kata` command line."""
