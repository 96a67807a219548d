"""Code that runs in the learner's child process. Nothing here decides a grade."""
