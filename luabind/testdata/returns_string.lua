return "Forgetful"
